import { randomUUID } from 'node:crypto';
import net from 'node:net';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import { Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { createTemporalGateway, type TemporalGateway } from '../../shared/temporal/client';
import { temporalConnectionOptions, temporalGatewayOptions } from '../../shared/temporal/connection-options';
import { retentionContract, type RetentionWorkflow } from '../../shared/temporal/retention/contract';
import { startWorker, type RunningWorker } from '../../worker/main';
import { testConfig } from '../support/api';
import { withTestDatabase } from '../support/database';
import { createTestPki, type TestPki } from '../support/test-certificates';
import { uniqueTaskQueue } from '../support/worker';

/**
 * The dev server speaks only plaintext, so a TLS-terminating proxy stands in front of it, as a load
 * balancer does in a real deployment: it asks every client for a certificate signed by the test CA,
 * and pipes the decrypted HTTP/2 to the dev server.
 */
interface TlsProxy {
  address: string;
  /** The CN of every client certificate it let through. */
  admitted: string[];
  /** Handshakes it refused. */
  refused: string[];
  close(): Promise<void>;
}

async function startTlsProxy(pki: TestPki, server: { cert: string; key: string }, upstream: string): Promise<TlsProxy> {
  const [host, port] = [upstream.slice(0, upstream.lastIndexOf(':')), Number(upstream.slice(upstream.lastIndexOf(':') + 1))];
  const admitted: string[] = [];
  const refused: string[] = [];
  const sockets = new Set<net.Socket>();
  const proxy = tls.createServer(
    { cert: server.cert, key: server.key, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: true, ALPNProtocols: ['h2'] },
    (socket) => {
      admitted.push(String(socket.getPeerCertificate().subject.CN));
      const back = net.connect(port, host);
      for (const s of [socket, back]) {
        sockets.add(s);
        s.on('error', () => undefined);
        s.on('close', () => {
          sockets.delete(s);
          socket.destroy();
          back.destroy();
        });
      }
      socket.pipe(back).pipe(socket);
    },
  );
  proxy.on('tlsClientError', (err) => refused.push(err.message));
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(proxy.address() as net.AddressInfo).port}`,
    admitted,
    refused,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        proxy.close(() => resolve());
      }),
  };
}

const SERVER_NAME = 'temporal.test';

let pki: TestPki;
let proxy: TlsProxy;
let worker: RunningWorker | undefined;
let gateway: TemporalGateway | undefined;

const tdb = withTestDatabase({
  setUp: async () => {
    pki = createTestPki('temporal-tls');
    proxy = await startTlsProxy(pki, pki.issue(SERVER_NAME, 'serverAuth'), process.env.TEMPORAL_ADDRESS!);
  },
  tearDown: async () => {
    await gateway?.close();
    await worker?.stop();
    await proxy?.close();
    pki?.remove();
  },
});

describe('Temporal over mTLS', () => {
  it('runs a workflow with the gateway and the worker both connected through mTLS', async () => {
    const client = pki.issue('finops-worker', 'clientAuth');
    // One from a file, one as PEM text: both forms a deployment passes.
    const config = testConfig({
      DATABASE_URL: tdb.url,
      TEMPORAL_ADDRESS: proxy.address,
      TEMPORAL_TLS_CERT: client.certPath,
      TEMPORAL_TLS_KEY: client.key,
      TEMPORAL_TLS_CA: pki.ca.certPath,
      TEMPORAL_TLS_SERVER_NAME: SERVER_NAME,
      TEMPORAL_TASK_QUEUE: uniqueTaskQueue('tls'),
      WORKER_HEALTH_PORT: '0',
    });
    worker = await startWorker(config);
    gateway = createTemporalGateway(temporalGatewayOptions(config));
    const handle = await (
      await gateway.client()
    ).workflow.start<RetentionWorkflow>(retentionContract.workflowType, {
      taskQueue: config.TEMPORAL_TASK_QUEUE,
      workflowId: `tls-retention-${randomUUID()}`,
      args: [{ batchSize: 50 }],
    });
    const result = await handle.result();
    expect(result.stage).toBe('done');
    // The worker's admin and polling connections and the gateway's came through the proxy with the client certificate.
    expect(proxy.admitted.length).toBeGreaterThanOrEqual(3);
    expect(new Set(proxy.admitted)).toEqual(new Set(['finops-worker']));
    expect(proxy.refused).toEqual([]);
  }, 120_000);

  it('is refused without a client certificate, or with one another CA signed', async () => {
    const otherPki = createTestPki('stranger');
    try {
      const foreign = otherPki.issue('finops-worker', 'clientAuth');
      const base = { TEMPORAL_ADDRESS: proxy.address, TEMPORAL_TLS_CA: pki.ca.cert, TEMPORAL_TLS_SERVER_NAME: SERVER_NAME };
      // The proxy's account of why: no certificate; a foreign one ends the handshake before any stream is carried.
      const attempts = [
        { config: testConfig(base), reason: /peer did not return a certificate/ },
        { config: testConfig({ ...base, TEMPORAL_TLS_CERT: foreign.cert, TEMPORAL_TLS_KEY: foreign.key }), reason: /./ },
      ];
      const admittedBefore = proxy.admitted.length;
      for (const { config, reason } of attempts) {
        const refusedBefore = proxy.refused.length;
        const stranger = createTemporalGateway(temporalGatewayOptions(config));
        try {
          await expect(stranger.ping(5000)).rejects.toThrow();
        } finally {
          await stranger.close();
        }
        await expect(NativeConnection.connect(temporalConnectionOptions(config))).rejects.toThrow();
        // Refused at the handshake: nothing reached the dev server.
        const refusals = proxy.refused.slice(refusedBefore);
        expect(refusals.length).toBeGreaterThan(0);
        expect(refusals.filter((m) => !reason.test(m))).toEqual([]);
        expect(proxy.admitted.length).toBe(admittedBefore);
      }
      // Plaintext gets no further.
      await expect(Connection.connect({ address: proxy.address, connectTimeout: '2s' })).rejects.toThrow();
      expect(proxy.admitted.length).toBe(admittedBefore);
    } finally {
      otherPki.remove();
    }
  }, 120_000);
});

describe('Temporal with an API key', () => {
  /** A TLS gRPC server answering GetSystemInfo (the first call of every connection) and keeping its authorization header. */
  async function startKeyRecorder(): Promise<{ address: string; authorizations: string[]; close(): Promise<void> }> {
    const identity = pki.issue(SERVER_NAME, 'serverAuth');
    const authorizations: string[] = [];
    const raw = (b: Buffer) => b;
    const server = new grpc.Server();
    server.addService(
      {
        GetSystemInfo: {
          path: '/temporal.api.workflowservice.v1.WorkflowService/GetSystemInfo',
          requestStream: false,
          responseStream: false,
          requestSerialize: raw,
          requestDeserialize: raw,
          responseSerialize: raw,
          responseDeserialize: raw,
        },
      },
      {
        GetSystemInfo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
          authorizations.push(...call.metadata.get('authorization').map(String));
          callback(null, Buffer.alloc(0)); // an empty message: no capabilities
        },
      },
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(
        '127.0.0.1:0',
        grpc.ServerCredentials.createSsl(null, [{ cert_chain: Buffer.from(identity.cert), private_key: Buffer.from(identity.key) }]),
        (err, p) => (err ? reject(err) : resolve(p)),
      ),
    );
    return {
      address: `127.0.0.1:${port}`,
      authorizations,
      close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
    };
  }

  it('sends the key as a bearer token over TLS from both kinds of connection', async () => {
    const recorder = await startKeyRecorder();
    try {
      const options = temporalConnectionOptions(
        testConfig({
          TEMPORAL_ADDRESS: recorder.address,
          TEMPORAL_API_KEY: 'test-api-key-0123',
          TEMPORAL_TLS_CA: pki.ca.cert,
          TEMPORAL_TLS_SERVER_NAME: SERVER_NAME,
        }),
      );
      const connection = await Connection.connect(options);
      await connection.close();
      const native = await NativeConnection.connect(options);
      await native.close();
      expect(recorder.authorizations.length).toBeGreaterThanOrEqual(2);
      expect(new Set(recorder.authorizations)).toEqual(new Set(['Bearer test-api-key-0123']));
    } finally {
      await recorder.close();
    }
  }, 60_000);
});
