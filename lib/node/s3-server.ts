/**
 * The S3 view over HTTP, for tools that are not JavaScript (aws CLI, rclone, boto3). Path-style
 * requests at `http://127.0.0.1:<port>/<bucket>/<key>`; binds loopback unless told otherwise.
 */
import { S3Api, type S3ApiOptions } from '../s3/index.js';
import { serveHandler, type RunningServer } from './server.js';

export interface S3ServerOptions extends S3ApiOptions {
  port?: number;
  host?: string;
  /** Serve this double instead of a new one built from the options. */
  api?: S3Api;
}

/** Starts the S3 view over HTTP. Point clients at `endpoint` (the origin) with path-style addressing. */
export async function startS3Server(options: S3ServerOptions = {}): Promise<RunningServer & { api: S3Api; endpoint: string }> {
  const { port, host, api: given, ...apiOptions } = options;
  const api = given ?? new S3Api(apiOptions);
  const running = await serveHandler((r) => api.handle(r), { port: port ?? 0, host: host ?? '127.0.0.1' });
  return { ...running, api, endpoint: running.origin };
}
