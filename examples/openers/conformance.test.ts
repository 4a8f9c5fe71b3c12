/** docs/conformance.md's opening example: a conformance suite registered for a target (one group, to stay quick). */
// README: conformance
import { bucketConformance } from 'edge-doubles/conformance';
import { Bucket } from 'edge-doubles/bucket';

bucketConformance({ name: 'my bucket', create: () => new Bucket(), groups: ['ranges'] });
// README: end
