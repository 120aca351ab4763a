package command

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// validateDiag is the part of a `validate -json` diagnostic both tools
// must agree on.
type validateDiag struct {
	Severity, Summary, Detail string
	Range                     string
	Snippet                   string
}

// validateDiags runs `validate -json` with bin in a directory holding
// files, and returns the exit code and the diagnostics, sorted.
func validateDiags(t *testing.T, bin string, files map[string]string) (int, []validateDiag) {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		writeFile(t, filepath.Join(dir, name), src)
	}
	return validateDirDiags(t, bin, dir)
}

// validateDirDiags is validateDiags on a directory that holds the
// configuration already.
func validateDirDiags(t *testing.T, bin, dir string) (int, []validateDiag) {
	t.Helper()
	r := runIn(t, dir, "", bin, "validate", "-json")
	var doc struct {
		Diagnostics []struct {
			Severity, Summary, Detail string
			Range                     *struct {
				Start, End struct{ Line, Column, Byte int }
			}
			Snippet *struct {
				Code                 string `json:"code"`
				StartLine            int    `json:"start_line"`
				HighlightStartOffset int    `json:"highlight_start_offset"`
				HighlightEndOffset   int    `json:"highlight_end_offset"`
			}
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		return r.code, []validateDiag{{Severity: "unparsable output", Detail: r.stdout + r.stderr}}
	}
	var out []validateDiag
	for _, d := range doc.Diagnostics {
		v := validateDiag{Severity: d.Severity, Summary: d.Summary, Detail: normalizeProductName(d.Detail)}
		if d.Range != nil {
			v.Range = fmt.Sprintf("%04d:%04d-%04d:%04d", d.Range.Start.Line, d.Range.Start.Column, d.Range.End.Line, d.Range.End.Column)
		}
		if d.Snippet != nil {
			v.Snippet = fmt.Sprintf("%d %q [%d,%d)", d.Snippet.StartLine, d.Snippet.Code, d.Snippet.HighlightStartOffset, d.Snippet.HighlightEndOffset)
		}
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Range != out[j].Range {
			return out[i].Range < out[j].Range
		}
		return out[i].Summary < out[j].Summary
	})
	return r.code, out
}

// TestE2EConfigDiagnosticsMatchTerraform: configuration errors that
// Terraform finds when it loads a module (before it looks for providers)
// are found by strata too, with the same summaries, details, ranges and
// snippets. The cases are minimized from Terraform's own
// internal/configs/testdata/invalid-files, where a sweep
// (TestFidelityCorpus) found them differing.
func TestE2EConfigDiagnosticsMatchTerraform(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		src string
		// summaries are the summaries strata must give, sorted by range.
		summaries []string
	}{
		"resource label names": {
			src:       "resource \"a b\" \"c\" {}\ndata \"a b\" \"c\" {}\ndata \"a\" \"b c\" {}\nephemeral \"a b\" \"c\" {}\nephemeral \"a\" \"b c\" {}\nresource \"a\" \"b c\" {}\n",
			summaries: []string{"Invalid resource type name", "Invalid data source name", "Invalid data resource name", "Invalid ephemeral resource type", "Invalid ephemeral resource name", "Invalid resource name"},
		},
		"reserved block in data and ephemeral": {
			src:       "data \"a\" \"b\" {\n  locals {}\n}\nephemeral \"a\" \"b\" {\n  locals {}\n}\n",
			summaries: []string{"Reserved block type name in data block", "Reserved block type name in ephemeral block"},
		},
		"duplicate lifecycle in data": {
			src:       "data \"a\" \"b\" {\n  lifecycle {}\n  lifecycle {}\n}\n",
			summaries: []string{"Duplicate lifecycle block"},
		},
		"validation without the variable": {
			src:       "locals {\n  x = 1\n}\nvariable \"v\" {\n  validation {\n    condition     = local.x == 1\n    error_message = \"x\"\n  }\n}\nvariable \"w\" {\n  validation {\n    condition     = true\n    error_message = \"x\"\n  }\n}\n",
			summaries: []string{"Invalid variable validation condition", "Invalid validation expression", "Invalid variable validation condition"},
		},
		"provider local names": {
			src:       "terraform {\n  required_providers {\n    my_test = { source = \"a/b\" }\n    TEST = { source = \"a/c\" }\n  }\n}\nprovider \"-x\" {}\nresource \"test_a\" \"b\" {\n  provider = my_test\n}\n",
			summaries: []string{"Invalid provider local name", "Invalid provider local name", "Invalid provider local name", "Invalid provider local name"},
		},
		"provider reserved names and version": {
			src:       "provider \"test\" {\n  alias      = \"foo\"\n  version    = \"1.0.0\"\n  count      = 3\n  depends_on = []\n  source     = \"a/b\"\n  lifecycle {}\n  locals {}\n}\n",
			summaries: []string{"Version constraints inside provider configuration blocks are deprecated", "Reserved argument name in provider block", "Reserved argument name in provider block", "Reserved argument name in provider block", "Reserved block type name in provider block", "Reserved block type name in provider block"},
		},
		"duplicate declarations": {
			src: "resource \"a\" \"b\" {}\nresource \"a\" \"b\" {}\ndata \"a\" \"b\" {}\ndata \"a\" \"b\" {}\n" +
				"variable \"v\" {}\nvariable \"v\" {}\noutput \"o\" {\n  value = 1\n}\noutput \"o\" {\n  value = 1\n}\n" +
				"locals {\n  l = 1\n}\nlocals {\n  l = 2\n}\nprovider \"p\" {}\nprovider \"p\" {}\n" +
				"provider \"p\" {\n  alias = \"x\"\n}\nprovider \"p\" {\n  alias = \"x\"\n}\n" +
				"check \"c\" {\n  data \"e\" \"f\" {}\n  assert {\n    condition     = var.v == 1\n    error_message = \"x\"\n  }\n}\n" +
				"data \"e\" \"f\" {}\n",
			summaries: []string{`Duplicate resource "a" configuration`, `Duplicate data "a" configuration`, "Duplicate variable declaration", "Duplicate output definition", "Duplicate local value definition", "Duplicate provider configuration", "Duplicate provider configuration", `Duplicate data "e" configuration`},
		},
		"duplicate check": {
			src:       "variable \"v\" {}\ncheck \"c\" {\n  assert {\n    condition     = var.v == 1\n    error_message = \"x\"\n  }\n}\ncheck \"c\" {\n  assert {\n    condition     = var.v == 1\n    error_message = \"x\"\n  }\n}\n",
			summaries: []string{`Duplicate check "c" configuration`},
		},
		"quoted provisioner keywords": {
			src:       "resource \"terraform_data\" \"a\" {\n  provisioner \"local-exec\" {\n    when       = \"destroy\"\n    on_failure = \"continue\"\n    command    = \"true\"\n  }\n  provisioner \"local-exec\" {\n    on_failure = \"never\"\n    command    = \"true\"\n  }\n}\n",
			summaries: []string{"Quoted keywords are deprecated", "Quoted keywords are deprecated", `Invalid "on_failure" keyword`, "Quoted keywords are deprecated"},
		},
		"language edition and experiments": {
			src:       "terraform {\n  language = TF2021\n}\nterraform {\n  experiments = []\n}\n",
			summaries: []string{"Module uses experimental features"},
		},
		"registry module not installed": {
			src:       "module \"m\" {\n  source = \"hashicorp/consul/aws\"\n}\n",
			summaries: []string{"Module not installed"},
		},
		"undeclared depends_on entries": {
			src:       "resource \"terraform_data\" \"a\" {\n  depends_on = [terraform_data.nope, data.x.y]\n}\nresource \"terraform_data\" \"b\" {\n  depends_on = [data.x.y]\n}\noutput \"o\" {\n  value      = 1\n  depends_on = [module.m]\n}\nresource \"terraform_data\" \"c\" {\n  input = data.q.r\n}\n",
			summaries: []string{"Reference to undeclared resource", "Reference to undeclared resource", "Reference to undeclared module", "Reference to undeclared resource"},
		},
		"required_providers outside terraform": {
			src:       "required_providers {\n  null = { source = \"hashicorp/null\" }\n}\n",
			summaries: []string{"Invalid required_providers block"},
		},
		"ignore_changes wildcard": {
			src:       "resource \"terraform_data\" \"a\" {\n  lifecycle {\n    ignore_changes = [\"*\"]\n  }\n}\n",
			summaries: []string{"Invalid ignore_changes wildcard"},
		},
		"removed with instance keys": {
			src: "resource \"terraform_data\" \"a\" {}\nremoved {\n  from = module.m[\"b\"].terraform_data.r[1]\n}\n" +
				"removed {\n  from = terraform_data.b[0]\n}\nremoved {\n  from = module.m.module.n[0]\n}\n",
			summaries: []string{"Module instance keys not allowed", "Resource instance keys not allowed", "Module instance keys not allowed"},
		},
		"moved between a module and a resource": {
			src:       "resource \"terraform_data\" \"a\" {}\nmoved {\n  from = module.m\n  to   = terraform_data.a\n}\n",
			summaries: []string{`Invalid "moved" addresses`},
		},
		"snippet of a range ending at a line start": {
			src:       "resource \"a\" \"b\" {\n  x = \n}\n",
			summaries: []string{"Invalid expression"},
		},
	}
	tf, _ := referenceTerraform()
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"main.tf": tc.src}
			code, got := validateDiags(t, strataBin, files)
			var summaries []string
			for _, d := range got {
				summaries = append(summaries, d.Summary)
			}
			if diff := cmp.Diff(tc.summaries, summaries); diff != "" {
				t.Errorf("wrong summaries (-want +got):\n%s\n%+v", diff, got)
			}
			if tf == "" {
				return
			}
			tfCode, want := validateDiags(t, tf, files)
			if tfCode != code {
				t.Errorf("exit code %d, terraform %d", code, tfCode)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("strata differs from terraform (-terraform +strata):\n%s", diff)
			}
		})
	}
}

// normalizeProductName replaces the product name in a message, the one
// documented difference in wording (differences.md).
func normalizeProductName(s string) string {
	s = strings.ReplaceAll(s, "by Terraform in a", "by strata in a")
	s = strings.ReplaceAll(s, "terraform init", "strata init")
	s = strings.ReplaceAll(s, "future version of Terraform", "future version of strata")
	s = strings.ReplaceAll(s, "tells Terraform to", "tells strata to")
	return s
}
