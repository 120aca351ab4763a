package file

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/communicator/ssh/sshtest"
	"github.com/strata-dev/strata/internal/provisioners"
)

func config(attrs map[string]cty.Value) cty.Value {
	vals := map[string]cty.Value{}
	for name, attr := range schema.Attributes {
		vals[name] = cty.NullVal(attr.Type)
	}
	for k, v := range attrs {
		vals[k] = v
	}
	return cty.ObjectVal(vals)
}

func TestValidate(t *testing.T) {
	dst := cty.StringVal("/tmp/x")
	tests := map[string]struct {
		attrs map[string]cty.Value
		want  string
	}{
		"source":  {map[string]cty.Value{"source": cty.StringVal("a"), "destination": dst}, ""},
		"content": {map[string]cty.Value{"content": cty.UnknownVal(cty.String), "destination": dst}, ""},
		"both":    {map[string]cty.Value{"source": cty.StringVal("a"), "content": cty.StringVal("b"), "destination": dst}, "Cannot set both 'source' and 'content'"},
		"neither": {map[string]cty.Value{"destination": dst}, "Must provide one of 'source' or 'content'"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := ""
			if diags := (Provisioner{}).Validate(config(tc.attrs)); len(diags) > 0 {
				got = diags[0].Summary
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

func TestProvision(t *testing.T) {
	s := sshtest.Start(t, sshtest.Options{})
	vals := map[string]cty.Value{}
	for name, attr := range provisioners.ConnectionSchema.Attributes {
		vals[name] = cty.NullVal(attr.Type)
	}
	vals["host"], vals["port"], vals["user"] = cty.StringVal(s.Host), cty.NumberIntVal(int64(s.Port)), cty.StringVal(s.User)
	vals["private_key"], vals["agent"] = cty.StringVal(s.UserKey), cty.False
	conn := cty.ObjectVal(vals)

	src := t.TempDir()
	os.WriteFile(filepath.Join(src, "f.txt"), []byte("file"), 0o600)
	dst := t.TempDir()
	var out []string
	run := func(attrs map[string]cty.Value) string {
		t.Helper()
		diags := Provisioner{}.Provision(context.Background(), provisioners.Request{
			Config: config(attrs), Connection: conn, Output: func(l string) { out = append(out, l) },
		})
		if len(diags) == 0 {
			return ""
		}
		return diags[0].Summary + ": " + diags[0].Detail
	}
	if err := run(map[string]cty.Value{"content": cty.StringVal("text"), "destination": cty.StringVal(dst + "/c.txt")}); err != "" {
		t.Fatal(err)
	}
	if err := run(map[string]cty.Value{"source": cty.StringVal(src + "/"), "destination": cty.StringVal(dst)}); err != "" {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"c.txt": "text", "f.txt": "file"} {
		if got, err := os.ReadFile(filepath.Join(dst, name)); err != nil || string(got) != want {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
	if len(out) != 0 {
		t.Errorf("the file provisioner printed %q", out)
	}
	got := run(map[string]cty.Value{"source": cty.StringVal(src + "/missing"), "destination": cty.StringVal(dst)})
	if want := "file provisioner error: stat " + src + "/missing: no such file or directory"; got != want {
		t.Errorf("wrong error for a missing source\nwant: %s\ngot:  %s", want, got)
	}
}
