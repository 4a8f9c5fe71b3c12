"""A Python suite using edge-doubles as its Cloudflare back end: seed, reset, faults, the log, the clock."""
import time

import CloudFlare
import pytest
from botocore.exceptions import ClientError


def test_seeded_objects_and_records_are_what_the_clients_read(edge, s3, cf):
    edge.seed(
        buckets={"photos": {"cat.txt": "meow", "dog.bin": {"base64": "AAEC", "httpMetadata": {"contentType": "application/x-dog"}}}},
        zones={"example.com": [{"type": "A", "name": "www", "content": "192.0.2.10", "ttl": 300}]},
    )
    assert s3.get_object(Bucket="photos", Key="cat.txt")["Body"].read() == b"meow"
    dog = s3.get_object(Bucket="photos", Key="dog.bin")
    assert (dog["Body"].read(), dog["ContentType"]) == (b"\x00\x01\x02", "application/x-dog")
    records = cf.zones.dns_records.get(edge.zones["example.com"])
    assert [(r["name"], r["content"]) for r in records] == [("www.example.com", "192.0.2.10")]


def test_each_test_starts_empty(edge, s3, cf):
    # Whatever another test stored, the reset between tests emptied it; the bucket and zone stay.
    assert s3.list_objects_v2(Bucket="photos")["KeyCount"] == 0
    assert cf.zones.dns_records.get(edge.zones["example.com"]) == []
    assert edge.call("GET", "health")["buckets"] == ["photos"]


def test_boto3_retries_an_injected_internal_error(edge, s3):
    edge.fault(op="put", times=1, error="internal", bucket="photos")
    s3.put_object(Bucket="photos", Key="retried.txt", Body=b"made it")  # boto3 retries the 500 itself
    assert s3.get_object(Bucket="photos", Key="retried.txt")["Body"].read() == b"made it"
    puts = edge.log(surface="s3", op="put", bucket="photos")
    assert [p["status"] for p in puts] == ["error", "ok"]
    assert puts[0]["injected"]["failed"] is True


def put_record_with_retry(cf, zone_id, record, attempts=3):
    """The code under test: creates a record, retrying when the API is rate limited."""
    for attempt in range(attempts):
        try:
            return cf.zones.dns_records.post(zone_id, data=record)
        except CloudFlare.exceptions.CloudFlareAPIError as e:
            if int(e) != 971 or attempt == attempts - 1:
                raise
            time.sleep(0.01)


def test_our_retry_survives_a_rate_limited_api(edge, cf):
    zone = edge.zones["example.com"]
    edge.fault(method="POST", path="zones/*/dns_records", status=429, times=1)
    made = put_record_with_retry(cf, zone, {"type": "TXT", "name": "retry", "content": "ok", "ttl": 60})
    assert made["name"] == "retry.example.com"
    posts = edge.log(surface="api", op="POST", zone="example.com")
    assert [p["status"] for p in posts] == [429, 200]


def test_a_lifecycle_rule_acts_when_the_clock_moves(edge, s3):
    edge.seed(buckets={"photos": {"logs/old.txt": "old", "keep.txt": "keep"}})
    s3.put_bucket_lifecycle_configuration(
        Bucket="photos",
        LifecycleConfiguration={"Rules": [{"ID": "expire-logs", "Status": "Enabled", "Filter": {"Prefix": "logs/"}, "Expiration": {"Days": 1}}]},
    )
    s3.head_object(Bucket="photos", Key="logs/old.txt")  # still there today
    edge.advance(days=2)
    with pytest.raises(ClientError) as gone:
        s3.head_object(Bucket="photos", Key="logs/old.txt")
    assert gone.value.response["Error"]["Code"] == "404"
    s3.head_object(Bucket="photos", Key="keep.txt")
    assert [e["key"] for e in edge.log(surface="lifecycle")] == ["logs/old.txt"]
