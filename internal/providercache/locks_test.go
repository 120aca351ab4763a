package providercache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/depsfile"
	"github.com/strata-dev/strata/internal/getproviders"
)

func testConfig(t *testing.T, src string) *configs.Config {
	t.Helper()
	cfg, diags := configs.NewParser().LoadConfigFromSnapshot(map[string][]byte{"main.tf": []byte(src)})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return cfg
}

func TestCheckLocks(t *testing.T) {
	t.Parallel()
	null, random := addrs.NewDefaultProvider("null"), addrs.NewDefaultProvider("random")
	cfg := testConfig(t, `
terraform {
  required_providers {
    null   = { source = "hashicorp/null", version = "~> 3.1" }
    random = { source = "hashicorp/random" }
  }
}
resource "null_resource" "a" {}
resource "random_id" "b" {}
resource "terraform_data" "c" {}
`)
	tests := map[string]struct {
		locks depsfile.Locks
		skip  addrs.Provider
		want  []string // problem lines
		first bool     // the advice for a lock file without entries
	}{
		"all selected": {
			locks: depsfile.Locks{null: {Version: "3.1.1"}, random: {Version: "3.0.0"}},
		},
		"none selected": {
			locks: depsfile.Locks{},
			want: []string{
				"provider registry.terraform.io/hashicorp/null: required by this configuration but no version is selected",
				"provider registry.terraform.io/hashicorp/random: required by this configuration but no version is selected",
			},
			first: true,
		},
		"constraint no longer allows": {
			locks: depsfile.Locks{null: {Version: "2.0.0"}, random: {Version: "3.0.0"}},
			want:  []string{`provider registry.terraform.io/hashicorp/null: locked version selection 2.0.0 doesn't match the updated version constraints "~> 3.1"`},
		},
		"skipped needs no selection": {
			locks: depsfile.Locks{null: {Version: "3.1.1"}},
			skip:  random,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			diags := CheckLocks(cfg, tc.locks, func(p addrs.Provider) bool { return p == tc.skip })
			if len(tc.want) == 0 {
				if len(diags) != 0 {
					t.Fatalf("unexpected diagnostics: %s", diags)
				}
				return
			}
			if len(diags) != 1 || diags[0].Summary != "Inconsistent dependency lock file" {
				t.Fatalf("want one Inconsistent dependency lock file error, got %s", diags)
			}
			for _, w := range tc.want {
				if !strings.Contains(diags[0].Detail, "\n  - "+w+"\n") {
					t.Errorf("detail lacks %q:\n%s", w, diags[0].Detail)
				}
			}
			if got := strings.Contains(diags[0].Detail, "To make the initial dependency selections"); got != tc.first {
				t.Errorf("initial-selection advice: %v, want %v", got, tc.first)
			}
		})
	}
}

func TestUninstalled(t *testing.T) {
	t.Parallel()
	null, random, builtin := addrs.NewDefaultProvider("null"), addrs.NewDefaultProvider("random"), addrs.NewBuiltInProvider("terraform")
	tls, local := addrs.NewDefaultProvider("tls"), addrs.NewDefaultProvider("local")
	pkg := t.TempDir()
	if err := os.WriteFile(filepath.Join(pkg, "terraform-provider-null"), []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	h1, err := getproviders.Hash(pkg)
	if err != nil {
		t.Fatal(err)
	}
	locks := depsfile.Locks{
		null:    {Version: "3.1.1", Hashes: []string{h1, "zh:0123"}},
		random:  {Version: "3.0.0"},
		builtin: {Version: "1.0.0"},
		// Altered since init: no h1: checksum matches.
		tls: {Version: "4.0.0", Hashes: []string{"h1:OBqKQxtVuw+O5AFM8zdMSQpYC/3xhypP/Um6/KagdVQ="}},
		// No h1: checksum to check against.
		local: {Version: "2.0.0", Hashes: []string{"zh:0123"}},
	}
	installed := func(p addrs.Provider, v string) string {
		if p == random || p == builtin {
			return ""
		}
		return pkg
	}
	got := Uninstalled(locks, installed, func(addrs.Provider) bool { return false }, ".terraform/providers")
	want := []string{
		"registry.terraform.io/hashicorp/random: there is no package for registry.terraform.io/hashicorp/random 3.0.0 cached in .terraform/providers",
		"registry.terraform.io/hashicorp/tls: the cached package for registry.terraform.io/hashicorp/tls 4.0.0 (in .terraform/providers) does not match any of the checksums recorded in the dependency lock file",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("wrong result (-want +got)\n%s", diff)
	}
	delete(locks, tls)
	want = want[:1]
	if got := Uninstalled(locks, installed, func(p addrs.Provider) bool { return p == random }, "d"); len(got) != 0 {
		t.Errorf("a skipped provider is reported: %q", got)
	}
	if diags := UninstalledDiags(nil, false); diags != nil {
		t.Errorf("no problems give diagnostics: %s", diags)
	}
	for automation, advice := range map[bool]string{false: "run:\n  strata init", true: "You must install the required plugins before running strata operations."} {
		if diags := UninstalledDiags(want, automation); len(diags) != 1 || !strings.Contains(diags[0].Detail, "\n  - "+want[0]+"\n") || !strings.HasSuffix(diags[0].Detail, advice) {
			t.Errorf("wrong diagnostics in automation %t: %s", automation, diags)
		}
	}
	if diags := UninstalledEach(nil); diags != nil {
		t.Errorf("no problems give diagnostics: %s", diags)
	}
	if diags := UninstalledEach(want); len(diags) != 1 || diags[0].Summary != want[0] || diags[0].Detail != "" {
		t.Errorf("wrong diagnostics: %s", diags)
	}
}

func TestSaveLocks(t *testing.T) {
	t.Parallel()
	null := addrs.NewDefaultProvider("null")
	v1 := depsfile.Locks{null: {Provider: null, Version: "3.1.1", Hashes: []string{"h1:a"}}}
	v1more := depsfile.Locks{null: {Provider: null, Version: "3.1.1", Hashes: []string{"h1:a", "h1:b"}}}
	v2 := depsfile.Locks{null: {Provider: null, Version: "3.2.0", Hashes: []string{"h1:c"}}}
	tests := map[string]struct {
		old, new  depsfile.Locks
		readonly  bool
		want      LockUpdate
		wantDiags []string
		written   bool
	}{
		"unchanged":           {old: v1, new: v1, want: LocksUnchanged},
		"created":             {old: depsfile.Locks{}, new: v1, want: LocksCreated, written: true},
		"updated":             {old: v1, new: v2, want: LocksUpdated, written: true},
		"readonly, checksums": {old: v1, new: v1more, readonly: true, want: LocksNotSaved, wantDiags: []string{"Provider lock file not updated"}},
		"readonly, selection": {old: v1, new: v2, readonly: true, want: LocksNotSaved, wantDiags: []string{"Provider dependency changes detected"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), depsfile.FileName)
			got, diags := SaveLocks(path, tc.old, tc.new, tc.readonly)
			if got != tc.want {
				t.Errorf("SaveLocks = %d, want %d", got, tc.want)
			}
			var gotDiags []string
			for _, d := range diags {
				gotDiags = append(gotDiags, d.Summary)
			}
			if diff := cmp.Diff(tc.wantDiags, gotDiags); diff != "" {
				t.Errorf("wrong diagnostics (-want +got)\n%s", diff)
			}
			_, err := os.Stat(path)
			if written := err == nil; written != tc.written {
				t.Fatalf("lock file written: %v, want %v", written, tc.written)
			}
			if tc.written {
				back, ldiags := depsfile.Load(path)
				if ldiags.HasErrors() {
					t.Fatal(ldiags)
				}
				if back[null].Version != tc.new[null].Version {
					t.Errorf("recorded version %s, want %s", back[null].Version, tc.new[null].Version)
				}
			}
		})
	}
}

func TestOnlyProviders(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, `
terraform {
  required_providers {
    null = { source = "hashicorp/null" }
  }
}
resource "null_resource" "a" {}
`)
	tests := map[string]struct {
		args     []string
		want     []addrs.Provider
		wantDiag string
	}{
		"none":         {},
		"needed":       {args: []string{"hashicorp/null"}, want: []addrs.Provider{addrs.NewDefaultProvider("null")}},
		"full address": {args: []string{"registry.terraform.io/hashicorp/null"}, want: []addrs.Provider{addrs.NewDefaultProvider("null")}},
		"not needed":   {args: []string{"hashicorp/random"}, wantDiag: "Invalid provider argument"},
		"invalid":      {args: []string{"a/b/c/d"}, wantDiag: "Invalid provider source string"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got, diags := OnlyProviders(cfg, tc.args)
			if tc.wantDiag != "" {
				if len(diags) != 1 || diags[0].Summary != tc.wantDiag {
					t.Fatalf("diagnostics %s, want %q", diags, tc.wantDiag)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
}

func TestMissing(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, `
terraform {
  required_providers {
    null   = { source = "hashicorp/null" }
    random = { source = "hashicorp/random" }
  }
}
resource "null_resource" "a" {}
resource "random_id" "b" {}
resource "terraform_data" "c" {}
`)
	null := addrs.NewDefaultProvider("null")
	diags := Missing(cfg, func(p addrs.Provider) bool { return p == null })
	if len(diags) != 1 || diags[0].Summary != "Missing required provider" || !strings.Contains(diags[0].Detail, "requires provider registry.terraform.io/hashicorp/random,") {
		t.Errorf("wrong diagnostics: %s", diags)
	}
	if diags := Missing(cfg, func(addrs.Provider) bool { return true }); len(diags) != 0 {
		t.Errorf("all available, yet: %s", diags)
	}
}
