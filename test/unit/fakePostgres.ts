// A PostgreSQL server that only collects passwords, on loopback: it answers the startup message
// (and refuses TLS) with AuthenticationCleartextPassword and records every PasswordMessage it gets,
// then refuses the login. What a server named by a hostile repository's settings would do.
import * as net from 'node:net';

export interface FakePostgres {
  port: number;
  /** Connections accepted. */
  readonly connections: number;
  /** The startup parameters of each connection (user, database, application_name). */
  readonly startups: Array<Record<string, string>>;
  /** Every password the clients sent, in clear text. */
  readonly passwords: string[];
  close(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

function message(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.write(type, 0, 'latin1');
  head.writeInt32BE(body.length + 4, 1);
  return Buffer.concat([head, body]);
}

function authFailed(): Buffer {
  const fields = ['SFATAL', 'VFATAL', 'C28P01', 'Mpassword authentication failed'].map((f) => Buffer.from(`${f}\0`));
  return message('E', Buffer.concat([...fields, Buffer.from([0])]));
}

export async function startFakePostgres(): Promise<FakePostgres> {
  const state = { connections: 0, startups: [] as Array<Record<string, string>>, passwords: [] as string[] };
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let buf = Buffer.alloc(0);
    let started = false;
    socket.on('data', (d) => {
      buf = Buffer.concat([buf, d]);
      for (;;) {
        if (!started) {
          if (buf.length < 4 || buf.length < buf.readInt32BE(0)) return;
          const len = buf.readInt32BE(0);
          const code = buf.readInt32BE(4);
          const body = buf.subarray(8, len);
          buf = buf.subarray(len);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            socket.write('N');
            continue;
          }
          const parts = body.toString('utf8').split('\0');
          const params: Record<string, string> = {};
          for (let i = 0; i + 1 < parts.length && parts[i]; i += 2) params[parts[i]] = parts[i + 1];
          state.startups.push(params);
          started = true;
          const auth = Buffer.alloc(4);
          auth.writeInt32BE(3); // AuthenticationCleartextPassword
          socket.write(message('R', auth));
          continue;
        }
        if (buf.length < 5 || buf.length < 1 + buf.readInt32BE(1)) return;
        const type = String.fromCharCode(buf[0]);
        const len = buf.readInt32BE(1);
        const body = buf.subarray(5, 1 + len);
        buf = buf.subarray(1 + len);
        if (type === 'p') {
          state.passwords.push(body.toString('utf8').replace(/\0$/, ''));
          socket.end(authFailed());
          return;
        }
        if (type === 'X') return void socket.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    get connections() {
      return state.connections;
    },
    startups: state.startups,
    passwords: state.passwords,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
