/**
 * The widget bench page (bench/widget.mjs). Loads the built widget (dist/widget layout: the entry
 * and its chunks, as a host page would) and reports:
 *  - mount: navigation start → the panel's tab list is in the shadow DOM and laid out;
 *    ?mode=baseline loads nothing but this page and lays out one element (the same-run baseline);
 *  - window.benchTools(n): the Tools tab re-rendered with n tools (list count shown, rows laid out);
 *  - window.benchConfirm(): controller.call() → the approval dialog laid out with focus inside;
 *  - window.benchReference(): the same-run reference for those two: 20 plain <li> rows made with DOM
 *    calls and laid out.
 * Everything is timed until the DOM holds the result and a forced layout returns, not until a
 * frame: headless frames are paced at 60 Hz and would quantize every figure to 16 ms.
 */

const params = new URLSearchParams(location.search);

/**
 * Resolves once check() is truthy: re-checked after every DOM mutation in `root`, and every
 * millisecond or so for what mutations do not announce (focus moving).
 */
function until(check, root) {
  return new Promise((resolve) => {
    const hit = check();
    if (hit) return resolve(hit);
    let timer;
    const observer = new MutationObserver(() => test());
    const test = () => {
      const value = check();
      if (!value) return false;
      observer.disconnect();
      clearTimeout(timer);
      resolve(value);
      return true;
    };
    const poll = () => {
      if (!test()) timer = setTimeout(poll, 1);
    };
    observer.observe(root, { childList: true, subtree: true, characterData: true, attributes: true });
    timer = setTimeout(poll, 1);
  });
}

if (params.get('mode') === 'baseline') {
  const element = document.createElement('div');
  element.textContent = 'baseline';
  document.body.append(element);
  element.getBoundingClientRect();
  window.mountMs = performance.now();
  document.body.dataset.ready = 'yes';
} else {
  const { mount } = await import('/toolgate-widget.js');
  const host = document.createElement('div');
  document.body.append(host);
  const server = params.get('server');
  const { controller } = mount(host, {
    servers: server ? [{ url: server, id: 'bench' }] : [],
    audit: 'memory',
  });
  const root = host.shadowRoot;
  await until(() => root.querySelector('[role=tablist]'), root);
  host.getBoundingClientRect();
  window.mountMs = performance.now();
  window.controller = controller;

  const text = (selector) => root.querySelector(selector)?.textContent ?? '';
  const toolsOf = (n) =>
    Array.from({ length: n }, (_, i) => ({
      name: `tool_${i}`,
      title: `Tool number ${i}`,
      description: `Does thing ${i} with care.`,
      inputSchema: { type: 'object', properties: { value: { type: 'string' } } },
    }));
  const synthetic = (tools) => ({
    id: 'synthetic',
    label: 'Synthetic',
    config: {},
    state: 'connected',
    trust: 'untrusted',
    tools,
    disabled: new Set(),
  });
  const reset = () => {
    controller.servers.value = controller.servers.value.filter((s) => s.id !== 'synthetic');
  };

  window.benchTools = async (n) => {
    root.querySelector('#tg-tab-tools').click();
    reset();
    await until(() => root.querySelector('#tg-tools-heading'), root);
    const tools = toolsOf(n);
    const before = controller.servers.value.reduce((sum, s) => sum + s.tools.length, 0);
    const expected = `${before + n} tools`;
    const start = performance.now();
    controller.servers.value = [...controller.servers.value, synthetic(tools)];
    await until(
      () => text('.tg-view [role=status]') === expected && root.querySelector('.tg-tool-row'),
      root,
    );
    host.getBoundingClientRect();
    const ms = performance.now() - start;
    reset();
    return ms;
  };

  window.benchConfirm = async () => {
    const start = performance.now();
    const call = controller
      .call({ serverId: 'bench', toolName: 'echo', arguments: { message: 'bench' } })
      .catch(() => undefined);
    const dialog = await until(() => root.querySelector('[role=dialog]'), root);
    await until(() => dialog.contains(root.activeElement), root);
    host.getBoundingClientRect();
    const ms = performance.now() - start;
    controller.approvals.value[0].answer({ action: 'deny', reason: 'bench', decidedBy: 'bench' });
    await call;
    await until(() => !root.querySelector('[role=dialog]'), root);
    return ms;
  };

  window.connected = () =>
    until(
      () => controller.servers.value.find((s) => s.id === 'bench' && s.state !== 'connecting'),
      root,
    ).then((s) => s.state);
  document.body.dataset.ready = 'yes';
}

window.benchReference = async () => {
  const start = performance.now();
  const list = document.createElement('ul');
  for (let i = 0; i < 20; i++) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.textContent = `Tool number ${i}`;
    item.append(button);
    list.append(item);
  }
  document.body.append(list);
  list.getBoundingClientRect();
  const ms = performance.now() - start;
  list.remove();
  return ms;
};
