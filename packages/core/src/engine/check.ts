import type { Client } from '@elastic/elasticsearch';
import { AppError, ErrorCode } from '../errors.js';

export interface EngineInfo {
  version: string;
  major: number;
  clusterName: string;
  status: string;
}

/**
 * Checks that the engine answers and runs a supported major version (8 or 9).
 * Readiness comes from `_cluster/health`; the version from `_nodes/_local`, because `GET /`
 * is not served by every deployment (the embedded node lacks the rest-root module).
 */
export async function checkEngine(client: Client, supportedMajors: readonly number[] = [8, 9]): Promise<EngineInfo> {
  const health = await client.cluster.health({ wait_for_status: 'yellow', timeout: '30s' });
  const nodes = await client.nodes.info({ node_id: '_local', filter_path: 'nodes.*.version' });
  const version = Object.values(nodes.nodes ?? {})[0]?.version;
  if (version === undefined) {
    throw new AppError(503, ErrorCode.EngineUnavailable, 'The engine did not report its version.');
  }
  const major = Number.parseInt(version.split('.')[0] ?? '', 10);
  if (!supportedMajors.includes(major)) {
    throw new AppError(
      500,
      ErrorCode.EngineVersionUnsupported,
      `Elasticsearch ${version} is not supported; use a ${supportedMajors.join(' or ')}.x cluster.`,
    );
  }
  return { version, major, clusterName: health.cluster_name, status: health.status };
}
