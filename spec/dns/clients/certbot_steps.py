"""Runs steps of certbot's Cloudflare plugin (Debian's python3-certbot-dns-cloudflare) with its own
client class, for spec/dns/clients/certbot-dns-cloudflare.test.ts.

Reads one JSON step per line on stdin and answers one JSON line on stdout:
  {"step": "add"|"del", "domain": ..., "name": ..., "validation": ..., "env": {...}}
  -> {"ok": true|false, "error": {"class", "message"}, "log": [the plugin's log lines]}
One process serves many steps (importing certbot is the slow part), but each step runs as certbot
runs it: in the environment given (and only that, besides the process's own), with a client built
afresh as the plugin's Authenticator builds one from its credentials file: from the API token when
there is one (CERTBOT_DNS_CLOUDFLARE_API_TOKEN, the INI's dns_cloudflare_api_token), else from the
e-mail and global key (CERTBOT_DNS_CLOUDFLARE_EMAIL / _API_KEY). The Cloudflare library reads the
base URL from the environment (CLOUDFLARE_API_URL in 2.x, CLOUDFLARE_BASE_URL in 4.x): certbot has
no option for it. `del` never raises (the plugin logs and goes on), so its log is how a record left
behind shows.
"""
import json
import logging
import os
import sys

from certbot import errors
from certbot_dns_cloudflare._internal.dns_cloudflare import Authenticator, _CloudflareClient


class Lines(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.lines = []

    def emit(self, record):
        self.lines.append('%s %s' % (record.levelname, record.getMessage()))


def client():
    token = os.environ.get('CERTBOT_DNS_CLOUDFLARE_API_TOKEN')
    if token:
        return _CloudflareClient(api_token=token)
    return _CloudflareClient(email=os.environ['CERTBOT_DNS_CLOUDFLARE_EMAIL'],
                             api_key=os.environ['CERTBOT_DNS_CLOUDFLARE_API_KEY'])


def run(step):
    lines = Lines()
    plugin_log = logging.getLogger('certbot_dns_cloudflare')
    plugin_log.setLevel(logging.DEBUG)
    plugin_log.addHandler(lines)
    out = {'ok': True}
    try:
        if step['step'] == 'add':
            client().add_txt_record(step['domain'], step['name'], step['validation'], Authenticator.ttl)
        elif step['step'] == 'del':
            client().del_txt_record(step['domain'], step['name'], step['validation'])
        else:
            raise ValueError('unknown step ' + step['step'])
    except errors.PluginError as e:
        out = {'ok': False, 'error': {'class': type(e).__name__, 'message': str(e)}}
    finally:
        plugin_log.removeHandler(lines)
    out['log'] = lines.lines
    return out


def main():
    own = dict(os.environ)
    for line in sys.stdin:
        step = json.loads(line)
        os.environ.clear()
        os.environ.update(own)
        os.environ.update(step.get('env', {}))
        print(json.dumps(run(step)), flush=True)


main()
