package statefile

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
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
