import Type from 'typebox';
import { defineRoute, NoParams, NoQuery, type AnyRoute } from '@xle/core';
import type { Engine } from '../engine.js';
import { VALIDATORS_DATA_SET } from '../resources/data-sets.js';
import { validatorInfo, validatorRegistry, validatorReports } from '../resources/validators.js';
import { PublicKeyParam } from '../schemas/params.js';
import { ValidatorInfo, ValidatorRegistry, ValidatorReports } from '../schemas/responses/validators.js';

const TAGS = ['Other resources'];
/** The validators data set: computed from a validator list by the validators job. */
const VALIDATORS = VALIDATORS_DATA_SET;

export function validatorRoutes(engine: Engine): AnyRoute[] {
  return [
    defineRoute({
      method: 'get',
      path: '/validatorregistry',
      dataSet: VALIDATORS,
      summary: 'Active validators: on the verified UNL, or seen validating in the last 24 hours',
      tags: TAGS,
      params: NoParams,
      query: NoQuery,
      response: ValidatorRegistry,
      handler: () => validatorRegistry(engine),
    }),
    defineRoute({
      method: 'get',
      path: '/validator/{VALIDATOR_PUBLIC_KEY}',
      dataSet: VALIDATORS,
      summary: 'One validator (by master or ephemeral key), with its agreement over 1 h, 24 h and 30 days',
      tags: TAGS,
      params: Type.Object({ VALIDATOR_PUBLIC_KEY: PublicKeyParam }),
      query: NoQuery,
      response: ValidatorInfo,
      handler: ({ params }) => validatorInfo(engine, params.VALIDATOR_PUBLIC_KEY),
    }),
    defineRoute({
      method: 'get',
      path: '/validator/{PUBLIC_KEY}/reports',
      dataSet: VALIDATORS,
      summary: 'Daily agreement reports of one validator, newest day first',
      tags: TAGS,
      params: Type.Object({ PUBLIC_KEY: PublicKeyParam }),
      query: NoQuery,
      response: ValidatorReports,
      handler: ({ params }) => validatorReports(engine, params.PUBLIC_KEY),
    }),
  ];
}
