/**
 * An attacker's endpoint on 127.0.0.1 that hostile MCP Apps aim at (e2e/peers/hostile-app.mjs): an
 * HTTP server that records every request and every TCP connection, and a UDP socket that records
 * every datagram (WebRTC's STUN and TURN binding requests). A second UDP socket and the `/control`
 * path are for the test's own control attempts from the host page: when a control arrives, anything
 * the app sent before it has had every chance to arrive too, so no test waits on a clock.
 */
import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Attacker {
  /** http://127.0.0.1:PORT */
  http: string;
  /** The UDP port the apps aim at. */
  udp: number;
  /** The UDP port for the test's control attempts. */
  controlUdp: number;
  /** Request paths (with query) that arrived, in order. */
  requests: string[];
  /** TCP connections accepted (a request needs one; a connection alone carries no request). */
  connections(): number;
  /** Datagrams on the apps' port (first 60 printable characters each). */
  datagrams: string[];
  /** Datagrams on the control port. */
  controlDatagrams: string[];
  /** Forgets what arrived so far. */
  reset(): void;
  close(): Promise<void>;
}

const printable = (message: Buffer) =>
  message
    .toString('latin1')
    .replace(/[^\x20-\x7e]/g, '.')
    .slice(0, 60);

async function bindUdp(into: string[]): Promise<Socket> {
  const socket = createSocket('udp4');
  socket.on('message', (message) => into.push(printable(message)));
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  return socket;
}

export async function startAttacker(): Promise<Attacker> {
  const requests: string[] = [];
  const datagrams: string[] = [];
  const controlDatagrams: string[] = [];
  let connections = 0;
  const server: Server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    response
      .writeHead(200, { 'access-control-allow-origin': '*', 'content-type': 'text/html' })
      .end('<p>the attacker got it</p>');
  });
  server.on('connection', () => {
    connections++;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const [udp, control] = await Promise.all([bindUdp(datagrams), bindUdp(controlDatagrams)]);
  return {
    http: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    udp: (udp.address() as AddressInfo).port,
    controlUdp: (control.address() as AddressInfo).port,
    requests,
    connections: () => connections,
    datagrams,
    controlDatagrams,
    reset() {
      requests.length = 0;
      datagrams.length = 0;
      controlDatagrams.length = 0;
      connections = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      udp.close();
      control.close();
    },
  };
}
