"""boto3 put_object (or head_object) calls against an S3 endpoint; prints the seconds they took, as JSON.

Run by bench/boto3-continue.ts: argv is the endpoint, the bucket, the count and the call. botocore
sends `Expect: 100-continue` with every PutObject body and waits up to a second for the interim
answer; head_object sends no body, so it is what boto3 and the server cost without that wait.
"""
import json
import sys
import time

import boto3
from botocore.config import Config

endpoint, bucket, count, call = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
s3 = boto3.client(
    "s3",
    endpoint_url=endpoint,
    region_name="auto",
    aws_access_key_id="bench-key-id",
    aws_secret_access_key="bench-secret",
    config=Config(retries={"max_attempts": 1}),
)
body = b"a" * 1024
s3.put_object(Bucket=bucket, Key="warm", Body=body)  # the first call pays for botocore's loading
start = time.perf_counter()
for i in range(count):
    if call == "put_object":
        s3.put_object(Bucket=bucket, Key=f"k{i}", Body=body)
    else:
        s3.head_object(Bucket=bucket, Key="warm")
print(json.dumps({"seconds": time.perf_counter() - start, "count": count, "botocore": boto3.__version__}))
