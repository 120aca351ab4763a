package backend

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/backend/local"
)

func TestRegistry(t *testing.T) {
	tests := map[string]struct {
		known, reads, single bool
	}{
		"local": {known: true, reads: true},
		"pg":    {known: true, reads: true},
		"http":  {known: true, reads: true, single: true},
		"inmem": {known: true},
		"s3":    {known: true, reads: true},
		"gcs":   {},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			typ, ok := Lookup(name)
			if ok != tc.known {
				t.Fatalf("Lookup found %v, want %v", ok, tc.known)
			}
			if !ok {
				return
			}
			if typ.Name != name || typ.ReadsState() != tc.reads || typ.SingleState != tc.single {
				t.Errorf("got name %q, reads state %v, single state %v", typ.Name, typ.ReadsState(), typ.SingleState)
			}
		})
	}
}

func TestRegistryMessages(t *testing.T) {
	want := `The backend "gcs" is not supported by this version of strata. Supported backends: local, pg, http, s3 (and inmem, for testing).`
	if got := Unsupported("gcs", nil).Detail; got != want {
		t.Errorf("Unsupported:\n got %s\nwant %s", got, want)
	}
	if got, want := StateReaderNames(), `"local", "pg", "http" and "s3"`; got != want {
		t.Errorf("StateReaderNames = %s, want %s", got, want)
	}
}

func TestConfigureDefaultIsLocal(t *testing.T) {
	b, diags := Configure(nil, Options{Version: "1.11.4"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	l, ok := b.(*local.Backend)
	if !ok {
		t.Fatalf("got %T, want *local.Backend", b)
	}
	if l.Path != "terraform.tfstate" || l.WorkspaceDir != "terraform.tfstate.d" {
		t.Errorf("paths %q, %q", l.Path, l.WorkspaceDir)
	}
	if _, diags := Configure(&Config{Type: "gcs"}, Options{}); !diags.HasErrors() || diags[0].Summary != "Unsupported backend type" {
		t.Errorf("an unknown type: %v", diags)
	}
}

func TestTypeReadState(t *testing.T) {
	dir := t.TempDir()
	typ, _ := Lookup("local")
	args := map[string]cty.Value{"path": cty.StringVal(filepath.Join(dir, "none.tfstate"))}
	if _, found, err := typ.ReadState(context.Background(), args, Options{}, "default", nil); err != nil || found {
		t.Errorf("found %v, err %v; want nothing found", found, err)
	}
	// A relative path is in the working directory given, not the
	// process's.
	if err := os.WriteFile(filepath.Join(dir, "rel.tfstate"), []byte(`{"version":4,"terraform_version":"1.11.0","serial":1,"lineage":"l","outputs":{"v":{"value":"x","type":"string"}},"resources":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	rel := map[string]cty.Value{"path": cty.StringVal("rel.tfstate")}
	if s, found, err := typ.ReadState(context.Background(), rel, Options{WorkDir: dir}, "default", nil); err != nil || !found || s.Outputs["v"] == nil {
		t.Errorf("relative path: found %v, err %v; want the state in the working directory", found, err)
	}
	pg, _ := Lookup("pg")
	env := map[string]string{"PG_SKIP_TABLE_CREATION": "yes please"}
	_, _, err := pg.ReadState(context.Background(), nil, Options{Getenv: func(k string) string { return env[k] }}, "default", nil)
	want := `the environment variable PG_SKIP_TABLE_CREATION must be true or false, not "yes please"`
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}

func TestValueArgs(t *testing.T) {
	pg, _ := Lookup("pg")
	tests := map[string]struct {
		in       cty.Value
		want     map[string]cty.Value
		wantDiag []string
	}{
		"null": {cty.NullVal(cty.DynamicPseudoType), map[string]cty.Value{}, nil},
		"converted": {cty.ObjectVal(map[string]cty.Value{"skip_table_creation": cty.StringVal("true"), "conn_str": cty.NullVal(cty.String)}),
			map[string]cty.Value{"skip_table_creation": cty.True}, nil},
		"not an object": {cty.StringVal("x"), map[string]cty.Value{}, []string{`The given configuration is not valid for backend "pg": an object is required.`}},
		// As Terraform, the first problem only: an unexpected argument
		// before a value of the wrong type.
		"unknown and wrong type": {cty.ObjectVal(map[string]cty.Value{"bucket": cty.StringVal("b"), "skip_index_creation": cty.StringVal("nope")}), map[string]cty.Value{},
			[]string{`The given configuration is not valid for backend "pg": unexpected attribute "bucket".`}},
		"wrong type": {cty.ObjectVal(map[string]cty.Value{"skip_index_creation": cty.StringVal("nope")}), map[string]cty.Value{},
			[]string{`The given configuration is not valid for backend "pg": .skip_index_creation: a bool is required.`}},
		"unknown value": {cty.ObjectVal(map[string]cty.Value{"conn_str": cty.UnknownVal(cty.String)}), map[string]cty.Value{}, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, diags := ValueArgs(pg, tc.in)
			if diff := cmp.Diff(tc.want, got, cmp.Comparer(func(a, b cty.Value) bool { return a.RawEquals(b) })); diff != "" {
				t.Errorf("wrong result (-want +got):\n%s", diff)
			}
			var details []string
			for _, d := range diags {
				details = append(details, d.Detail)
			}
			if diff := cmp.Diff(tc.wantDiag, details); diff != "" {
				t.Errorf("wrong diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}
