package backend

import (
	"path/filepath"
	"testing"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclparse"
	"github.com/zclconf/go-cty/cty"
)

func testBlock(t *testing.T, typ, src string) *Block {
	t.Helper()
	f, diags := hclparse.NewParser().ParseHCL([]byte(src), "main.tf")
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return &Block{Type: typ, Body: f.Body, Range: hcl.Range{Filename: "main.tf"}}
}

// TestResolve: the recorded backend is used while the block matches it;
// anything else asks for init, in Terraform's words.
func TestResolve(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		// saved is the block init recorded (nil: nothing recorded), with
		// -backend-config values merged in.
		saved  *Block
		merged map[string]cty.Value
		block  *Block
		// wantType is the resolved backend's type ("": the default local
		// backend); wantSummary the error's summary, wantDetail the
		// first line of its detail.
		wantType, wantSummary, wantDetail string
	}{
		"nothing": {},
		"unchanged": {
			saved: testBlock(t, "local", `path = "a.tfstate"`), block: testBlock(t, "local", `path = "a.tfstate"`),
			wantType: "local",
		},
		"argument moved to -backend-config": {
			saved: testBlock(t, "local", ``), merged: map[string]cty.Value{"path": cty.StringVal("a.tfstate")},
			block:    testBlock(t, "local", `path = "a.tfstate"`),
			wantType: "local",
		},
		"block unchanged, -backend-config kept": {
			saved: testBlock(t, "local", ``), merged: map[string]cty.Value{"path": cty.StringVal("a.tfstate")},
			block:    testBlock(t, "local", ``),
			wantType: "local",
		},
		"first configuration": {
			block:       testBlock(t, "local", ``),
			wantSummary: `Backend initialization required, please run "strata init"`,
			wantDetail:  `Reason: Initial configuration of the requested backend "local"`,
		},
		"unset": {
			saved:       testBlock(t, "local", ``),
			wantSummary: `Backend initialization required, please run "strata init"`,
			wantDetail:  `Reason: Unsetting the previously set backend "local"`,
		},
		"type changed": {
			saved: testBlock(t, "local", ``), block: testBlock(t, "inmem", ``),
			wantSummary: `Backend initialization required: please run "strata init"`,
			wantDetail:  `Reason: Backend type changed from "local" to "inmem"`,
		},
		"block changed": {
			saved: testBlock(t, "local", `path = "a.tfstate"`), block: testBlock(t, "local", `path = "b.tfstate"`),
			wantSummary: `Backend initialization required: please run "strata init"`,
			wantDetail:  `Reason: Backend configuration block has changed`,
		},
		"invalid block": {
			block:       testBlock(t, "local", `nope = 1`),
			wantSummary: "Unsupported argument",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "terraform.tfstate")
			if tc.saved != nil {
				c, diags := tc.saved.Decode()
				if diags.HasErrors() {
					t.Fatal(diags)
				}
				c.Merge(tc.merged, nil)
				if err := WriteSaved(path, c, "1.11.4"); err != nil {
					t.Fatal(err)
				}
			}
			got, diags := Resolve(path, tc.block)
			if tc.wantSummary != "" {
				if !diags.HasErrors() || diags[0].Summary != tc.wantSummary {
					t.Fatalf("diagnostics %s, want %q", diags, tc.wantSummary)
				}
				if tc.wantDetail != "" && (len(diags[0].Detail) < len(tc.wantDetail) || diags[0].Detail[:len(tc.wantDetail)] != tc.wantDetail) {
					t.Errorf("detail starts %q, want %q", diags[0].Detail, tc.wantDetail)
				}
				if got != nil {
					t.Errorf("resolved %v despite the error", got)
				}
				return
			}
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			if gotType := ""; got != nil {
				gotType = got.Type
				if gotType != tc.wantType {
					t.Errorf("resolved type %q, want %q", gotType, tc.wantType)
				}
				if p := got.Value.GetAttr("path"); p.IsNull() || p.AsString() != "a.tfstate" {
					t.Errorf("resolved path %#v, want the recorded a.tfstate", p)
				}
			} else if tc.wantType != "" {
				t.Errorf("resolved the default backend, want %q", tc.wantType)
			}
		})
	}
}
