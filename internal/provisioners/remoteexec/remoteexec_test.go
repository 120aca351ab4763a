package remoteexec

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
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
	list := cty.ListVal([]cty.Value{cty.StringVal("x")})
	tests := map[string]struct {
		attrs map[string]cty.Value
		ok    bool
	}{
		"none":            {nil, false},
		"inline":          {map[string]cty.Value{"inline": list}, true},
		"unknown inline":  {map[string]cty.Value{"inline": cty.UnknownVal(cty.List(cty.String))}, true},
		"script":          {map[string]cty.Value{"script": cty.StringVal("a.sh")}, true},
		"scripts":         {map[string]cty.Value{"scripts": list}, true},
		"inline + script": {map[string]cty.Value{"inline": list, "script": cty.StringVal("a.sh")}, false},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			diags := Provisioner{}.Validate(config(tc.attrs))
			if tc.ok != !diags.HasErrors() {
				t.Fatalf("wrong diagnostics %v", diags)
			}
			if !tc.ok && diags[0].Detail != `Only one of "inline", "script", or "scripts" must be set` {
				t.Errorf("wrong detail %q", diags[0].Detail)
			}
		})
	}
}

func TestCollectScripts(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.sh"), filepath.Join(dir, "b.sh")
	os.WriteFile(a, []byte("echo a"), 0o644)
	os.WriteFile(b, []byte("#!/bin/bash\necho b\n"), 0o644)
	got, err := collectScripts(config(map[string]cty.Value{"inline": cty.ListVal([]cty.Value{cty.StringVal("cd /"), cty.StringVal("ls")})}), "")
	if err != nil || len(got) != 1 || string(got[0]) != "cd /\nls\n" {
		t.Errorf("inline: %q, %v", got, err)
	}
	got, err = collectScripts(config(map[string]cty.Value{"scripts": cty.ListVal([]cty.Value{cty.StringVal(a), cty.StringVal(b)})}), "")
	if err != nil || len(got) != 2 || string(got[0]) != "echo a" || string(got[1]) != "#!/bin/bash\necho b\n" {
		t.Errorf("scripts: %q, %v", got, err)
	}
	_, err = collectScripts(config(map[string]cty.Value{"script": cty.StringVal(filepath.Join(dir, "missing.sh"))}), "")
	if err == nil || !strings.HasPrefix(err.Error(), "Failed to open script '"+filepath.Join(dir, "missing.sh")+"': ") {
		t.Errorf("missing script: %v", err)
	}
	// Relative paths are in the working directory given, and named as
	// written.
	got, err = collectScripts(config(map[string]cty.Value{"script": cty.StringVal("a.sh")}), dir)
	if err != nil || len(got) != 1 || string(got[0]) != "echo a" {
		t.Errorf("relative script: %q, %v", got, err)
	}
	_, err = collectScripts(config(map[string]cty.Value{"script": cty.StringVal("missing.sh")}), dir)
	if err == nil || err.Error() != "Failed to open script 'missing.sh': open missing.sh: no such file or directory" {
		t.Errorf("relative missing script: %v", err)
	}
}

func conn(s *sshtest.Server) cty.Value {
	vals := map[string]cty.Value{}
	for name, attr := range provisioners.ConnectionSchema.Attributes {
		vals[name] = cty.NullVal(attr.Type)
	}
	vals["host"] = cty.StringVal(s.Host)
	vals["port"] = cty.NumberIntVal(int64(s.Port))
	vals["user"] = cty.StringVal(s.User)
	vals["private_key"] = cty.StringVal(s.UserKey)
	vals["agent"] = cty.False
	vals["timeout"] = cty.StringVal("10s")
	return cty.ObjectVal(vals)
}

var scriptPath = regexp.MustCompile(`/tmp/terraform_[0-9]+\.sh`)

func TestProvision(t *testing.T) {
	s := sshtest.Start(t, sshtest.Options{})
	var mu sync.Mutex
	var out []string
	req := provisioners.Request{
		Config:     config(map[string]cty.Value{"inline": cty.ListVal([]cty.Value{cty.StringVal("echo one"), cty.StringVal("echo two >&2"), cty.StringVal("printf three"), cty.StringVal("exit 7")})}),
		Connection: conn(s),
		Output:     func(l string) { mu.Lock(); out = append(out, l); mu.Unlock() },
	}
	diags := Provisioner{}.Provision(context.Background(), req)
	if len(diags) != 1 || diags[0].Summary != "remote-exec provisioner error" ||
		scriptPath.ReplaceAllString(diags[0].Detail, "SCRIPT") != `error executing "SCRIPT": Process exited with status 7` {
		t.Fatalf("wrong diagnostics %v", diags)
	}
	// A last line without newline is shown too.
	if diff := cmp.Diff([]string{"one", "two", "three"}, out[2:]); diff != "" {
		t.Errorf("wrong output (-want +got)\n%s", diff)
	}
	if !strings.HasPrefix(out[0], "Connecting to remote host via SSH...\n") || out[1] != "Connected!" {
		t.Errorf("wrong connect output %q", out[:2])
	}

	// The scripts are overwritten once they have run.
	dir := t.TempDir()
	c := conn(s).AsValueMap()
	c["script_path"] = cty.StringVal(dir + "/s_%RAND%.sh")
	req.Connection = cty.ObjectVal(c)
	req.Config = config(map[string]cty.Value{"inline": cty.ListVal([]cty.Value{cty.StringVal("echo ok")})})
	if diags := (Provisioner{}).Provision(context.Background(), req); diags.HasErrors() {
		t.Fatal(diags.Error())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("%d scripts left, want 1", len(entries))
	}
	if data, _ := os.ReadFile(filepath.Join(dir, entries[0].Name())); len(data) != 0 {
		t.Errorf("script left with %q", data)
	}

	// Without a connection, as Terraform says.
	req.Connection = cty.NullVal(provisioners.ConnectionSchema.ImpliedType())
	diags = Provisioner{}.Provision(context.Background(), req)
	if len(diags) != 1 || diags[0].Detail != "Missing connection configuration for provisioner." {
		t.Errorf("wrong diagnostics without a connection: %v", diags)
	}
}
