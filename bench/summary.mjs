/**
 * Turns the pages' raw reports into ratios against the baselines of the same run, and formats the
 * figures for the terminal and BENCHMARKS.md. Absolute numbers are printed too, but only the ratios
 * are comparable across runs: the machine is shared and its speed varies from minute to minute.
 *
 * Each ratio comes with its spread over rounds: the contenders run interleaved in many short
 * rounds, the ratio is taken round by round (contender's median over the baseline's median of the
 * same round), and the interquartile range of those per-round ratios says how far noise moves it.
 */

/** The targets from the issue; every one is "at most `max`". */
export const TARGETS = {
  toolgateJsonLatency: { max: 1.05, what: 'Toolgate JSON median round trip / floor' },
  toolgateSseLatency: { max: 1.05, what: 'Toolgate SSE median round trip / floor' },
  belowSdkJson: { max: 0.999, what: 'Toolgate / SDK median round trip, JSON (below the SDK)' },
  belowSdkSse: { max: 0.999, what: 'Toolgate / SDK median round trip, SSE (below the SDK)' },
  postMessageLatency: { max: 1.5, what: 'Toolgate postMessage median round trip / raw MessagePort' },
  sizeGzipKb: { max: 15, what: 'gzip size of connect + list + call, KB' },
};

const round2 = (value) => Math.round(value * 100) / 100;
const kb = (bytes) => Math.round((bytes / 1024) * 10) / 10;

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const position = (sorted.length - 1) * q;
  const low = Math.floor(position);
  const high = Math.ceil(position);
  return sorted[low] + (sorted[high] - sorted[low]) * (position - low);
}

/** Per-round ratios of two series: their quartiles. */
function spread(numerators, denominators) {
  const ratios = numerators.map((value, index) => value / denominators[index]);
  return { p25: round2(quantile(ratios, 0.25)), p75: round2(quantile(ratios, 0.75)) };
}

/** Each contender's figures with its ratios against `baseline` (by name) of the same run. */
function against(results, baseline) {
  const base = results[baseline];
  return Object.fromEntries(
    Object.entries(results).map(([name, { latency, throughput }]) => [
      name,
      {
        medianUs: latency.medianUs,
        p99Us: latency.p99Us,
        meanUs: latency.meanUs,
        // Typical per-call cost from round averages: robust to the odd GC pause, finer than 5 us medians.
        roundMeanUs: Math.round(quantile(latency.roundMeansUs, 0.5) * 10) / 10,
        samples: latency.samples,
        callsPerSecond: throughput.callsPerSecond,
        medianRatio: round2(latency.medianUs / base.latency.medianUs),
        medianRatioRounds: spread(latency.roundMediansUs, base.latency.roundMediansUs),
        p99Ratio: round2(latency.p99Us / base.latency.p99Us),
        throughputRatio: round2(throughput.callsPerSecond / base.throughput.callsPerSecond),
        throughputRatioRounds: spread(throughput.roundCallsPerSecond, base.throughput.roundCallsPerSecond),
      },
    ]),
  );
}

/** Toolgate against the SDK directly, round by round. */
function versus(raw, toolgate, sdk) {
  const a = raw[toolgate].latency;
  const b = raw[sdk].latency;
  return { value: round2(a.medianUs / b.medianUs), rounds: spread(a.roundMediansUs, b.roundMediansUs) };
}

/** Everything results.json holds: inputs, per-contender figures with ratios, and target verdicts. */
export function summarize({ reports, sizes, counts, ...context }) {
  const rtt = reports.find((r) => r.kind === 'rtt')?.data;
  if (!rtt) throw new Error('the round-trip page did not report');
  const navs = reports.filter((r) => r.kind === 'nav').map((r) => r.data);
  if (navs.some((n) => !n.ok)) throw new Error('a navigation run returned a wrong result');
  const navigation = {};
  for (const client of ['toolgate', 'sdk']) {
    const runs = navs.filter((n) => n.client === client).slice(counts.navWarmup);
    const ms = (values) => Math.round(quantile(values, 0.5) * 10) / 10;
    navigation[client] = {
      runs: runs.length,
      medianMs: ms(runs.map((n) => n.ms)),
      // Navigation start to the bundle evaluated; the rest is connect + list + call.
      loadedMedianMs: ms(runs.map((n) => n.loadedMs)),
      conversationMedianMs: ms(runs.map((n) => n.ms - n.loadedMs)),
      allMs: runs.map((n) => Math.round(n.ms * 10) / 10),
    };
  }
  navigation.ratio = round2(navigation.toolgate.medianMs / navigation.sdk.medianMs);
  const http = against(rtt.http, 'floor');
  const instant = against(rtt.instant, 'floor');
  const postMessage = Object.keys(rtt.postMessage).length ? against(rtt.postMessage, 'raw-port') : {};
  const size = {
    toolgateGzipKb: kb(sizes['toolgate-first'].gzipBytes),
    toolgateMinKb: kb(sizes['toolgate-first'].bytes),
    sdkGzipKb: kb(sizes['sdk-first'].gzipBytes),
    sdkMinKb: kb(sizes['sdk-first'].bytes),
  };
  const json = versus(rtt.http, 'toolgate-json', 'sdk-json');
  const sse = versus(rtt.http, 'toolgate-sse', 'sdk-sse');
  const measured = {
    toolgateJsonLatency: {
      value: http['toolgate-json'].medianRatio,
      rounds: http['toolgate-json'].medianRatioRounds,
    },
    toolgateSseLatency: {
      value: http['toolgate-sse'].medianRatio,
      rounds: http['toolgate-sse'].medianRatioRounds,
    },
    belowSdkJson: json,
    belowSdkSse: sse,
    postMessageLatency: postMessage['toolgate-postmessage']
      ? {
          value: postMessage['toolgate-postmessage'].medianRatio,
          rounds: postMessage['toolgate-postmessage'].medianRatioRounds,
        }
      : { value: undefined },
    sizeGzipKb: { value: size.toolgateGzipKb },
  };
  const targets = Object.fromEntries(
    Object.entries(TARGETS).map(([key, target]) => [
      key,
      {
        ...target,
        ...measured[key],
        met: measured[key].value !== undefined && measured[key].value <= target.max,
      },
    ]),
  );
  return {
    ...context,
    counts,
    plan: rtt.plan,
    crossOriginIsolated: rtt.crossOriginIsolated,
    userAgent: rtt.userAgent,
    http,
    instant,
    postMessage,
    size,
    navigation,
    targets,
  };
}

const LABELS = {
  floor: 'plain fetch, fixed JSON (**floor**)',
  'floor-sse': 'plain fetch, fixed SSE event',
  'plain-json': 'plain fetch to the SDK server, JSON',
  'plain-sse': 'plain fetch to the SDK server, SSE',
  'sdk-json': 'official SDK client, JSON',
  'toolgate-json': '**Toolgate, JSON**',
  'sdk-sse': 'official SDK client, SSE',
  'toolgate-sse': '**Toolgate, SSE**',
  'raw-port': 'raw transferred MessagePort (**baseline**)',
  'toolgate-postmessage': '**Toolgate postMessage transport**',
};

const INSTANT_LABELS = {
  ...LABELS,
  floor: 'plain fetch client, JSON (**floor**)',
  'floor-sse': 'plain fetch client, SSE',
};

const x = (value) => `${value.toFixed(2)}x`;
const withSpread = (value, rounds) => `${x(value)} (${rounds.p25.toFixed(2)}–${rounds.p75.toFixed(2)})`;

function table(rows, baseline, labels = LABELS) {
  const lines = [
    `| contender | median µs | p99 µs | median / ${baseline} (rounds' IQR) | p99 / ${baseline} | calls/s at 16 in flight | throughput / ${baseline} (rounds' IQR) |`,
    '|---|---:|---:|---:|---:|---:|---:|',
  ];
  for (const [name, row] of Object.entries(rows))
    lines.push(
      `| ${labels[name] ?? name} | ${row.medianUs} | ${row.p99Us} | ${withSpread(row.medianRatio, row.medianRatioRounds)} | ${x(row.p99Ratio)} | ${row.callsPerSecond} | ${withSpread(row.throughputRatio, row.throughputRatioRounds)} |`,
    );
  return lines.join('\n');
}

function instantTable(rows) {
  const lines = [
    '| contender | µs per call (median of round means) | / floor | median µs | calls/s at 16 in flight | / floor |',
    '|---|---:|---:|---:|---:|---:|',
  ];
  const { floor } = rows;
  for (const [name, row] of Object.entries(rows))
    lines.push(
      `| ${INSTANT_LABELS[name] ?? name} | ${row.roundMeanUs} | ${x(row.roundMeanUs / floor.roundMeanUs)} | ${row.medianUs} | ${row.callsPerSecond} | ${x(row.callsPerSecond / floor.callsPerSecond)} |`,
    );
  return lines.join('\n');
}

/** Markdown figures: the run's context, the tables, size, navigation and the target verdicts. */
export function formatFigures(results) {
  const { machine, plan } = results;
  const load = (values) => values.map((v) => v.toFixed(2)).join(' / ');
  const parts = [
    `Run of ${results.date.slice(0, 16).replace('T', ' ')} UTC on ${machine.cores} shared cores (${machine.cpu}), ` +
      `load average (1/5/15 min) ${load(machine.loadBefore)} before and ${load(machine.loadAfter)} after; ` +
      `${results.userAgent.match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium'} headless, Node ${results.node}, ` +
      `server: ${results.serverMode}; page cross-origin isolated: ${results.crossOriginIsolated}. ` +
      `Per contender: ${plan.warmup} warm-up calls, then ${plan.rounds} interleaved rounds of ` +
      `${plan.sequentialPerRound} sequential calls and ${plan.burstPerRound} calls at ${plan.inFlight} in flight ` +
      `(${plan.rounds * plan.sequentialPerRound} latency samples and ${plan.rounds * plan.burstPerRound} throughput calls each).`,
    '',
    '**tools/call over HTTP**, ratios against the plain-fetch floor of this run (latency: lower is better; throughput: higher is better)',
    '',
    table(results.http, 'floor'),
    '',
    '**Client work alone**: the same calls through a fetch that answers at once from memory (no network, no server)',
    '',
    instantTable(results.instant),
  ];
  if (Object.keys(results.postMessage).length)
    parts.push(
      '',
      '**tools/call over postMessage** to a cross-origin iframe (its own renderer process), ratios against the raw port',
      '',
      table(results.postMessage, 'raw'),
    );
  const { size, navigation } = results;
  parts.push(
    '',
    '**Size and first result**',
    '',
    '| | Toolgate | official SDK client | Toolgate / SDK |',
    '|---|---:|---:|---:|',
    `| connect + list + call entry, minified, gzip -9 | ${size.toolgateGzipKb} KB | ${size.sdkGzipKb} KB | ${x(size.toolgateGzipKb / size.sdkGzipKb)} |`,
    `| the same, minified only | ${size.toolgateMinKb} KB | ${size.sdkMinKb} KB | ${x(size.toolgateMinKb / size.sdkMinKb)} |`,
    `| navigation start to first callTool result, median of ${navigation.toolgate.runs} fresh pages | ${navigation.toolgate.medianMs} ms | ${navigation.sdk.medianMs} ms | ${x(navigation.ratio)} |`,
    `| of which: until the bundle has run (download, compile, evaluate) | ${navigation.toolgate.loadedMedianMs} ms | ${navigation.sdk.loadedMedianMs} ms | ${x(navigation.toolgate.loadedMedianMs / navigation.sdk.loadedMedianMs)} |`,
    `| of which: connect + list + call | ${navigation.toolgate.conversationMedianMs} ms | ${navigation.sdk.conversationMedianMs} ms | ${x(navigation.toolgate.conversationMedianMs / navigation.sdk.conversationMedianMs)} |`,
    '',
    '**Targets**',
    '',
    "| target | this run (rounds' IQR) | met |",
    '|---|---:|:---:|',
  );
  for (const target of Object.values(results.targets)) {
    const value =
      target.value === undefined
        ? 'n/a'
        : target.rounds
          ? withSpread(target.value, target.rounds)
          : String(target.value);
    const bound = target.max < 1 ? '< 1' : `<= ${target.max}`;
    parts.push(`| ${target.what} (${bound}) | ${value} | ${target.met ? 'yes' : '**no**'} |`);
  }
  return parts.join('\n');
}
