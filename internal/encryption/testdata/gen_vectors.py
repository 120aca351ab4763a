#!/usr/bin/env python3
"""Writes vectors.json: payloads encrypted by following OpenTofu's
documented format (pbkdf2 key provider, aes_gcm method, envelope v0)
with Python's hashlib and the cryptography package, independently of
strata's Go code. Run from this directory: python3 gen_vectors.py"""
import base64, hashlib, json
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

def b64(b):
    return base64.b64encode(b).decode()

def vector(name, passphrase, salt, iterations, hash_function, key_length, nonce, aad, plain, serial=None, lineage=None, meta_key="key_provider.pbkdf2.k"):
    key = hashlib.pbkdf2_hmac(hash_function, passphrase.encode(), salt, iterations, key_length)
    ct = AESGCM(key).encrypt(nonce, plain.encode(), bytes(aad) if aad else None)
    # Go's encoding/json: struct fields in declaration order, no spaces.
    meta = json.dumps({"salt": b64(salt), "iterations": iterations, "hash_function": hash_function, "key_length": key_length}, separators=(",", ":"))
    env = {}
    if serial is not None:
        env["serial"] = serial
        env["lineage"] = lineage
    env["meta"] = {meta_key: b64(meta.encode())}
    env["encrypted_data"] = b64(nonce + ct)
    env["encryption_version"] = "v0"
    return {"name": name, "passphrase": passphrase, "salt": b64(salt), "iterations": iterations,
            "hash_function": hash_function, "key_length": key_length, "aad": aad,
            "key_hex": key.hex(), "meta_json": meta, "plain": plain,
            "stored": json.dumps(env, separators=(",", ":"))}

state = '{\n  "version": 4,\n  "terraform_version": "1.11.4",\n  "serial": 3,\n  "lineage": "5b6e0b5e-6a0c-4f7e-9a49-0e1d0c2b7a11",\n  "outputs": {\n    "pw": {\n      "value": "hunter2-very-secret",\n      "type": "string",\n      "sensitive": true\n    }\n  },\n  "resources": [],\n  "check_results": null\n}\n'
vectors = [
    vector("state-sha512-aes256", "correct-horse-battery-staple", bytes(range(32)), 200000, "sha512", 32,
           bytes(range(0xa0, 0xac)), None, state, serial=3, lineage="5b6e0b5e-6a0c-4f7e-9a49-0e1d0c2b7a11"),
    vector("record-sha256-aes128-aad", "another passphrase, long enough", bytes(range(100, 116)), 250000, "sha256", 16,
           bytes(12), [1, 2, 3], '{"op":"set","addr":"random_password.p"}', meta_key="my-alias"),
]
with open("vectors.json", "w") as f:
    json.dump(vectors, f, indent=2)
    f.write("\n")
