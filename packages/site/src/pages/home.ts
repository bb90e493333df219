import { h } from 'preact';
import type { Engine } from '@xle/api/engine';
import { requireDataSet } from '@xle/api/data-set-gate';
import {
  FACTS_DATA_SET,
  factsOf,
  networkFee,
  METRICS_DATA_SET,
  metricsOf,
  serverInfo,
  VALIDATORS_DATA_SET,
} from '@xle/api/resources/data-sets';
import { latestLedgers } from '@xle/api/resources/ledgers';
import { validatorRegistry } from '@xle/api/resources/validators';
import { definePage, type AnyPage } from '../page.js';
import { HomePage, type HomeProps } from '../views/home.js';
import type { SiteChrome } from '../views/layout.js';
import { optional } from './common.js';

/** Everything the front page shows, read in parallel; data sets not computed yet are left out. */
export async function loadHome(engine: Engine): Promise<HomeProps> {
  // A data set not computed yet is DATA_NOT_READY, which the page shows as such (not as empty).
  const gated = async <T>(gate: { job: string }, read: () => Promise<T>): Promise<T> => {
    await requireDataSet(engine, gate, '/');
    return read();
  };
  const [ledgers, metric, types, xrp, objects, amm, fee, server, validators] = await Promise.all([
    latestLedgers(engine),
    optional(gated(METRICS_DATA_SET, () => metricsOf(engine, 'metric'))),
    optional(gated(METRICS_DATA_SET, () => metricsOf(engine, 'type'))),
    optional(gated(FACTS_DATA_SET, () => factsOf(engine, 'XRP'))),
    optional(gated(FACTS_DATA_SET, () => factsOf(engine, 'ObjectCount'))),
    optional(gated(FACTS_DATA_SET, () => factsOf(engine, 'AMM'))),
    optional(networkFee(engine)),
    optional(serverInfo(engine)),
    optional(gated(VALIDATORS_DATA_SET, () => validatorRegistry(engine))),
  ]);
  return { ledgers, metric, types, xrp, objects, amm, fee, server, validators: validators?.length };
}

/** `/`: the newest ledgers, the network's figures, and the daily metrics drawn. */
export function homePage(engine: Engine, chrome: SiteChrome): AnyPage {
  return definePage({
    path: '/',
    cache: 'latest',
    render: async () => h(HomePage, { chrome, props: await loadHome(engine) }),
  });
}
