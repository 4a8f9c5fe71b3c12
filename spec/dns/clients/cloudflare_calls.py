"""Makes calls with the Python `cloudflare` library (module `CloudFlare`, v2 as Debian ships it) and
prints what the library returned or raised, as JSON, for spec/dns/clients/python-cloudflare.test.ts.

argv[1] is a JSON program:
  {"client": {"base_url": ..., "raw": true}, "calls": [{"call": "zones.dns_records.post",
   "ids": [zone_id], "params": {...}, "data": {...}, "files": {"file": ["name", "text"]}}]}
Credentials and, unless `client.base_url` is given, the base URL come from the environment
(CLOUDFLARE_API_TOKEN, or CLOUDFLARE_EMAIL + CLOUDFLARE_API_KEY; CLOUDFLARE_API_URL), which the
library reads itself. A string "$N.a.b" in ids, params or data stands for field a.b of call N's
result (its `result` when the client is raw), so one run can create a record and then use its id.
"""
import json
import sys

import CloudFlare


def resolve(value, done):
    if isinstance(value, str) and value.startswith('$'):
        index, *path = value[1:].split('.')
        found = done[int(index)]['result']
        for key in path:
            found = found[int(key)] if isinstance(found, list) else found[key]
        return found
    if isinstance(value, list):
        return [resolve(v, done) for v in value]
    if isinstance(value, dict):
        return {k: resolve(v, done) for k, v in value.items()}
    return value


def unwrap(result, raw):
    # With raw=True the library returns {"result": ..., "result_info": ...}; refs use the result.
    return result['result'] if raw and isinstance(result, dict) and 'result' in result else result


def main():
    program = json.loads(sys.argv[1])
    options = program.get('client', {})
    raw = bool(options.get('raw', False))
    cf = CloudFlare.CloudFlare(raw=raw, base_url=options.get('base_url'))
    outputs = []
    done = []
    for step in program['calls']:
        endpoint = cf
        *path, method = step['call'].split('.')
        for name in path:
            endpoint = getattr(endpoint, name)
        kwargs = {}
        for key in ('params', 'data'):
            if key in step:
                kwargs[key] = resolve(step[key], done)
        if 'files' in step:
            kwargs['files'] = {k: tuple(v) for k, v in step['files'].items()}
        try:
            result = getattr(endpoint, method)(*resolve(step.get('ids', []), done), **kwargs)
            outputs.append({'result': result})
            done.append({'result': unwrap(result, raw)})
        except CloudFlare.exceptions.CloudFlareError as e:
            outputs.append({'error': {
                'class': type(e).__name__,
                'code': int(e),
                'message': str(e),
                'chain': [[int(c), str(c)] for c in e],
            }})
            done.append({'result': None})
        except Exception as e:  # requests' HTTPError for a 5xx, which the library passes on
            outputs.append({'error': {'class': type(e).__name__, 'message': str(e)}})
            done.append({'result': None})
    print(json.dumps({'version': CloudFlare.__version__, 'outputs': outputs}))


main()
