import net from 'node:net';

/** True when something accepts TCP connections at host:port within the timeout. */
export function tcpAnswers(address: string, timeoutMs = 1000): Promise<boolean> {
  const i = address.lastIndexOf(':');
  const host = address.slice(0, i) || '127.0.0.1';
  const port = Number(address.slice(i + 1));
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
