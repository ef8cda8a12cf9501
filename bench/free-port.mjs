// A TCP port free on loopback now, for a bench's server to listen on.
import { createServer } from 'node:net';

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}
