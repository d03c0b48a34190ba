/** Faults of the request lens (the method, the path, the media type, the body's top-level type) and the clause the suite must fail on. */
import type { FaultExpectation } from './types';
import { TEST_FILES } from '../../support/run/test-files';

const REQUESTS = [TEST_FILES.requests];
const CU = [TEST_FILES.checkUpdate];

export const REQUEST_LENS_FAULTS: FaultExpectation[] = [
  // The error rules hold for a path no route handles too.
  { fault: 'req-unknown-route-html', clauses: ['ERR-3'], files: REQUESTS },
  // Found by asking paths no route handles with the Accept values clients send.
  { fault: 'req-unknown-route-html-for-browsers', clauses: ['ERR-3'], files: REQUESTS },
  // Found by a mutant of the reference: a request over every size limit is refused by the server itself, an error answer all the same.
  { fault: 'req-too-large-bare-refusal', clauses: ['ERR-3'], files: REQUESTS },
  // An undeclared operation answered 2xx: a status the spec does not declare, for a request that must be refused.
  { fault: 'req-delete-runtime-200', clauses: ['SPEC-9'], files: REQUESTS },
  // Another spelling of the runtime's path: the same runtime or a refusal, never a 5xx.
  { fault: 'req-trailing-slash-500', clauses: ['RT-9'], files: REQUESTS },
  // A refused body changes nothing; taken though the spec declares an object body, it is no refusal at all.
  { fault: 'req-array-body-applied', clauses: ['CU-7'], files: CU },
  // The same media type with a parameter is a valid update.
  { fault: 'req-json-charset-500', clauses: ['CU-1'], files: CU },
];
