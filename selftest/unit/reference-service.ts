// The reference service with faults, as the self-test starts it: MOCK_FAULT's items applied from
// outside it (selftest/faults/outside) through its plugin seam.
import type { FastifyInstance } from 'fastify';
import { buildService, type ServiceOptions } from '../../reference/service/app';
import { outsideFaults } from '../faults/outside/plugin';

export const service = (faults: string[] = [], extra: ServiceOptions = {}): Promise<FastifyInstance> =>
  buildService({ ...extra, plugins: [outsideFaults(faults), ...(extra.plugins ?? [])] });
