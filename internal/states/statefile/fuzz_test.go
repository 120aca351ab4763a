package statefile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzRead feeds arbitrary bytes to Read. Read must never panic, and must
// read as it reads a document decoded as a whole (readWhole); whatever
// it accepts must write (as json.MarshalIndent would), read back, and
// write again to the same bytes.
func FuzzRead(f *testing.F) {
	ins, _ := filepath.Glob(filepath.Join("testdata", "roundtrip", "*.in.json"))
	for _, in := range ins {
		src, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{
		"", "{}", "null", `{"version":4}`, `{"version":3}`, `{"version":3,"modules":[{"path":["root"],"resources":{"a.b.0":{"type":"a"}}}]}`,
		`{"version":4,"resources":[{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instances":[{"index_key":1e3}]}]}`,
		stateWith(okResource, okInstance),
		stateWith(okResource, `"index_key":"k","deposed":"d","status":"tainted","schema_version":1,"sensitive_attributes":[[{"type":"index","value":{"value":1,"type":"number"}}]]`),
		`{"version":4,"outputs":{"o":{"value":{"value":1,"type":"number"},"type":"dynamic"}}}`,
		`{"version":4,"outputs":{"o":{"value":[{"value":1,"type":"number"}],"type":["list","dynamic"]}}}`,
		`{"version":4,"outputs":{"o":{"value":1e400,"type":"number"},"p":{"value":null,"type":"dynamic"}}}`,
		stateWith(okResource, `"schema_version":0,"sensitive_attributes":[[{"type":"index","value":{"value":[1],"type":["list","number"]}}],[{"type":"index","value":{"value":null,"type":"string"}}]]`),
		stateWith(okResource, `"index_key":9007199254740993,"schema_version":0},{"index_key":9007199254740993,"schema_version":1`),
		stateWith(okResource, `"index_key":"","schema_version":0,"attributes":{"a":"<\u003c>"},"identity":{"x":1},"identity_schema_version":3`),
		// What readFast reads itself: every field, nulls, escapes,
		// unknown keys.
		stateWith(okResource, `"index_key":"a\u00e9","status":"tainted","deposed":"0001","schema_version":2,"attributes":{ "a" : [1, 2.5e3, "x\n"] },"sensitive_attributes":[[{"type":"get_attr","value":"a"}]],"identity_schema_version":1,"identity":{"id":"i"},"private":"eyJhIjoxfQ==","dependencies":["terraform_data.b","module.m.aws_a.x"],"create_before_destroy":true,"extra":{"k":[null,true]}`),
		stateWith(`"module":"module.m[\"k\"]","mode":"data","type":"t","name":"n","each":"map","provider":"provider[\"a/b/c\"].x"`, `"index_key":null,"status":null,"deposed":null,"provider":null,"schema_version":null,"attributes":null,"attributes_flat":null,"sensitive_attributes":null,"identity_schema_version":null,"identity":null,"private":null,"dependencies":null,"create_before_destroy":null`),
		strings.Replace(stateWith(okResource, okInstance), `"lineage":"l"`, `"lineage":"l\u0000\ud800","x":1,"strata":{"provider_configs":{}}`, 1),
		strings.Replace(stateWith(okResource, `"index_key":3,"schema_version":0,"private":"","dependencies":[]`), `"check_results":null`, `"check_results":[{"object_kind":"resource","config_addr":"a.b","status":"pass","objects":null}]`, 1),
		`{"version":4,"serial":18446744073709551615,"lineage":"","resources":[{"mode":"managed","type":"t","name":"n","provider":"provider[\"a/b/c\"]","instances":[]}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		s, err := Read(src)
		if err != nil {
			if s != nil {
				t.Fatalf("Read returned a state with error %v", err)
			}
			if len(bytes.TrimSpace(src)) != 0 && errors.Is(err, ErrEmpty) {
				t.Fatalf("ErrEmpty for non-empty input")
			}
			return
		}
		out, err := Write(s)
		if err != nil {
			t.Fatalf("Write of a state Read accepted: %v", err)
		}
		whole, err := readWhole(src)
		if err != nil {
			t.Fatalf("readWhole rejects what Read accepted: %v", err)
		}
		if again, err := Write(whole); err != nil || !bytes.Equal(out, again) {
			t.Fatalf("readCurrent and readWhole read differently (%v):\n%s\n---\n%s", err, out, again)
		}
		if ref := marshalIndentWrite(t, s); !bytes.Equal(out, ref) {
			t.Fatalf("Write differs from json.MarshalIndent:\n%s\n---\n%s", out, ref)
		}
		s2, err := Read(out)
		if err != nil {
			t.Fatalf("Read of Write's output: %v\n%s", err, out)
		}
		out2, err := Write(s2)
		if err != nil {
			t.Fatalf("second Write: %v", err)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("Write is not a fixed point:\n%s\n---\n%s", out, out2)
		}
	})
}
