// Small media made at start-up so the demo ships no binary files: a PNG gradient and a WAV chirp.
// Plain Uint8Array and DataView, so the same code runs in Node (npm start) and in the browser (the
// in-page demo server of the static site).

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

const ascii = (text) => Uint8Array.from(text, (ch) => ch.charCodeAt(0));

function u32be(value) {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
}

function chunk(type, data) {
  const body = concat([ascii(type), data]);
  return concat([u32be(data.length), body, u32be(crc32(body))]);
}

/** Adler-32, the zlib stream's checksum. */
function adler32(bytes) {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * A zlib stream of stored (uncompressed) deflate blocks: valid PNG image data without a
 * compressor, which the browser does not offer synchronously. The images are tiny.
 */
function zlibStored(data) {
  const parts = [Uint8Array.of(0x78, 0x01)];
  for (let offset = 0; offset < data.length || offset === 0; offset += 65535) {
    const block = data.subarray(offset, offset + 65535);
    const last = offset + 65535 >= data.length ? 1 : 0;
    const header = new Uint8Array(5);
    const view = new DataView(header.buffer);
    header[0] = last;
    view.setUint16(1, block.length, true);
    view.setUint16(3, ~block.length & 0xffff, true);
    parts.push(header, block);
    if (last) break;
  }
  parts.push(u32be(adler32(data)));
  return concat(parts);
}

function base64(bytes) {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A size x size RGB gradient as a base64 PNG. */
export function gradientPng(size = 48) {
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, size);
  view.setUint32(4, size);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const pixels = new Uint8Array(size * (1 + size * 3));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + size * 3); // each row starts with filter type 0
    for (let x = 0; x < size; x++) {
      pixels[row + 1 + x * 3] = Math.round((x / size) * 255);
      pixels[row + 2 + x * 3] = Math.round((y / size) * 255);
      pixels[row + 3 + x * 3] = 160;
    }
  }
  return base64(
    concat([
      Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
      chunk('IHDR', header),
      chunk('IDAT', zlibStored(pixels)),
      chunk('IEND', new Uint8Array(0)),
    ]),
  );
}

/** A short rising tone as a base64 8-bit mono WAV. */
export function chirpWav(seconds = 0.4, rate = 8000) {
  const samples = Math.round(seconds * rate);
  const wav = new Uint8Array(44 + samples);
  const view = new DataView(wav.buffer);
  wav.set(ascii('RIFF'), 0);
  view.setUint32(4, 36 + samples, true);
  wav.set(ascii('WAVEfmt '), 8);
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, rate, true);
  view.setUint32(28, rate, true);
  view.setUint16(32, 1, true);
  view.setUint16(34, 8, true);
  wav.set(ascii('data'), 36);
  view.setUint32(40, samples, true);
  for (let i = 0; i < samples; i++) {
    const t = i / rate;
    const frequency = 440 + 440 * (t / seconds);
    wav[44 + i] = 128 + Math.round(90 * Math.sin(2 * Math.PI * frequency * t));
  }
  return base64(wav);
}
