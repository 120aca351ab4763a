#!/bin/sh
# An external key provider speaking OpenTofu's protocol (version 1). It
# records the input it was given in $KP_LOG, when set, and returns a
# fixed 16-byte key; its metadata carries a label, to show that the
# stored metadata comes back on decryption.
set -e
echo '{"magic":"OpenTofu-External-Key-Provider","version":1}'
INPUT="$(cat)"
if [ -n "$KP_LOG" ]; then printf '%s\n' "$INPUT" >> "$KP_LOG"; fi
KEY="${KP_KEY:-AQIDBAUGBwgJCgsMDQ4PEA==}"
if [ "$INPUT" = "null" ]; then
  printf '{"keys":{"encryption_key":"%s"},"meta":{"external_data":{"label":"v1"}}}\n' "$KEY"
else
  printf '{"keys":{"encryption_key":"%s","decryption_key":"%s"},"meta":{"external_data":{"label":"v1"}}}\n' "$KEY" "$KEY"
fi
