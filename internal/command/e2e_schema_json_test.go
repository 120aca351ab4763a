package command

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestE2EProvidersSchemaPluginMatchesTerraform: providers schema -json prints
// what terraform prints for a plugin provider, byte for byte (functions,
// ephemeral_resource_schemas and field order included), and leaves
// provider_schemas out when there are no providers.
func TestE2EProvidersSchemaPluginMatchesTerraform(t *testing.T) {
	t.Parallel()
	mirror := testProviderMirror(t)
	cli := filepath.Join(t.TempDir(), "cli.tfrc")
	writeFile(t, cli, fmt.Sprintf("provider_installation {\n  filesystem_mirror {\n    path = %q\n  }\n}\n", mirror))
	env := []string{"TF_CLI_CONFIG_FILE=" + cli}
	sdir, tdir := twinDirs(t, map[string]string{"main.tf": requireProvider("stratafw", "strata/stratafw", "")})
	if r := strataEnv(t, sdir, env, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	r := strataEnv(t, sdir, env, "providers", "schema", "-json", "-no-color")
	if r.code != 0 {
		t.Fatalf("providers schema: %+v", r)
	}
	var doc struct {
		ProviderSchemas map[string]struct {
			EphemeralResourceSchemas map[string]json.RawMessage `json:"ephemeral_resource_schemas"`
			Functions                map[string]json.RawMessage `json:"functions"`
			ResourceIdentitySchemas  map[string]json.RawMessage `json:"resource_identity_schemas"`
		} `json:"provider_schemas"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	fw := doc.ProviderSchemas["registry.terraform.io/strata/stratafw"]
	if fw.EphemeralResourceSchemas["stratafw_token"] == nil || len(fw.Functions) == 0 {
		t.Errorf("no ephemeral resources or functions:\n%s", r.stdout)
	}
	// Terraform 1.12's resource_identity_schemas, for the types that have
	// an identity only.
	wantIdentity := `{"version":0,"attributes":{"name":{"type":"string","description":"The name.","required_for_import":true},"region":{"type":"string","optional_for_import":true}}}`
	if got := string(fw.ResourceIdentitySchemas["stratafw_keyed"]); got != wantIdentity || len(fw.ResourceIdentitySchemas) != 1 {
		t.Errorf("resource_identity_schemas: %s, want stratafw_keyed only with %s", got, wantIdentity)
	}
	if tr, ok := terraformEnv(t, tdir, env, "init", "-no-color"); ok {
		if tr.code != 0 {
			t.Fatalf("terraform init: %s", tr.stdout)
		}
		tr, _ = terraformEnv(t, tdir, env, "providers", "schema", "-json", "-no-color")
		// Terraform 1.11 predates resource identity.
		if stripped := withoutMember(t, r.stdout, "resource_identity_schemas"); tr.stdout != stripped {
			t.Errorf("documents differ:\nstrata:\n%s\nterraform:\n%s", r.stdout, tr.stdout)
		}
	}

	empty, tempty := twinDirs(t, map[string]string{"main.tf": "output \"a\" { value = 1 }\n"})
	r = strataEnv(t, empty, nil, "providers", "schema", "-json")
	if r.code != 0 || r.stdout != "{\"format_version\":\"1.0\"}\n" {
		t.Errorf("without providers: %+v", r)
	}
	if tr, ok := terraformEnv(t, tempty, nil, "providers", "schema", "-json"); ok && tr.stdout != r.stdout {
		t.Errorf("without providers, terraform prints %q", tr.stdout)
	}
}

// TestE2EMetadataFunctions: metadata functions -json lists every built-in
// function with Terraform's names, parameters, types and nullability,
// compared with a golden taken from terraform 1.11.4 and with terraform
// itself when installed. The descriptions are strata's own (see
// differences.md), so they are left out.
func TestE2EMetadataFunctions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	r := strataEnv(t, dir, nil, "metadata", "functions", "-json")
	if r.code != 0 {
		t.Fatalf("metadata functions: %+v", r)
	}
	got := signatures(t, r.stdout)
	if r := strataEnv(t, dir, nil, "metadata", "functions"); r.code != 1 || !strings.Contains(r.stderr, "The `strata metadata functions` command requires the `-json` flag.") {
		t.Errorf("without -json: %+v", r)
	}
	// Terraform 1.11.4's signatures without descriptions, from
	// "terraform metadata functions -json"; compared with terraform
	// itself too when it is installed.
	golden := signatures(t, string(readFile(t, filepath.Join("testdata", "metadata_functions.golden.json"))))
	compareSignatures(t, "golden", golden, got)
	if tr, ok := terraformEnv(t, dir, nil, "metadata", "functions", "-json"); ok {
		compareSignatures(t, "terraform", signatures(t, tr.stdout), got)
	}
}

func compareSignatures(t *testing.T, what string, want, got map[string]string) {
	t.Helper()
	for name, w := range want {
		if g, ok := got[name]; !ok {
			t.Errorf("%s: missing (%s)", name, what)
		} else if g != w {
			t.Errorf("%s:\nstrata:    %s\n%s: %s", name, g, what, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: not a function of %s", name, what)
		}
	}
}

// signatures decodes a metadata functions document into each function's
// signature without descriptions, as JSON.
func signatures(t *testing.T, out string) map[string]string {
	t.Helper()
	var doc struct {
		FormatVersion      string                    `json:"format_version"`
		FunctionSignatures map[string]map[string]any `json:"function_signatures"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if doc.FormatVersion != "1.0" {
		t.Errorf("format_version %q", doc.FormatVersion)
	}
	strip := func(p any) {
		if m, ok := p.(map[string]any); ok {
			delete(m, "description")
		}
	}
	res := map[string]string{}
	for name, sig := range doc.FunctionSignatures {
		delete(sig, "description")
		if ps, ok := sig["parameters"].([]any); ok {
			for _, p := range ps {
				strip(p)
			}
		}
		strip(sig["variadic_parameter"])
		b, _ := json.Marshal(sig)
		res[name] = string(b)
	}
	return res
}

// TestE2EModulesJSON: modules -json lists every declared module call,
// depth first, with Terraform's fields, and modules prints Terraform's
// tree. Terraform walks calls in map order, so the entries and lines are
// compared as sets.
func TestE2EModulesJSON(t *testing.T) {
	t.Parallel()
	files := map[string]string{
		"main.tf":     "module \"a\" {\n  source = \"./a\"\n}\nmodule \"z\" {\n  source = \"./a\"\n  count  = 2\n}\n",
		"a/main.tf":   "module \"b\" {\n  source = \"./b\"\n}\n",
		"a/b/main.tf": "output \"x\" { value = 1 }\n",
	}
	sdir, tdir := twinDirs(t, files)
	r := strataEnv(t, sdir, nil, "modules", "-json")
	want := `{"format_version":"1.0","modules":[{"key":"a","source":"./a","version":""},{"key":"b","source":"./b","version":""},{"key":"z","source":"./a","version":""},{"key":"b","source":"./b","version":""}]}` + "\n"
	if r.code != 0 || r.stdout != want {
		t.Errorf("modules -json: %+v", r)
	}
	h := strataEnv(t, sdir, nil, "modules", "-no-color")
	wantTree := "\nModules declared by configuration:\n.\n├── \"a\"[./a]\n│\u00a0\u00a0 └── \"b\"[./b]\n└── \"z\"[./a]\n    └── \"b\"[./b]\n\n"
	if h.code != 0 || h.stdout != wantTree {
		t.Errorf("modules: %q", h.stdout)
	}
	empty, tempty := twinDirs(t, map[string]string{"main.tf": "output \"a\" { value = 1 }\n"})
	e := strataEnv(t, empty, nil, "modules", "-json")
	if e.code != 0 || e.stdout != "{\"format_version\":\"1.0\",\"modules\":null}\n" {
		t.Errorf("without modules: %+v", e)
	}

	if _, ok := terraformEnv(t, tdir, nil, "init"); !ok {
		return
	}
	tr, _ := terraformEnv(t, tdir, nil, "modules", "-json")
	var got, exp struct {
		FormatVersion string           `json:"format_version"`
		Modules       []map[string]any `json:"modules"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(tr.stdout), &exp); err != nil {
		t.Fatalf("%v: %s", err, tr.stdout)
	}
	key := func(ms []map[string]any) []string {
		var out []string
		for _, m := range ms {
			b, _ := json.Marshal(m)
			out = append(out, string(b))
		}
		sort.Strings(out)
		return out
	}
	if got.FormatVersion != exp.FormatVersion || strings.Join(key(got.Modules), "\n") != strings.Join(key(exp.Modules), "\n") {
		t.Errorf("strata:\n%s\nterraform:\n%s", r.stdout, tr.stdout)
	}
	lines := func(s string) string {
		l := strings.Split(s, "\n")
		sort.Strings(l)
		return strings.Join(l, "\n")
	}
	if th, _ := terraformEnv(t, tdir, nil, "modules", "-no-color"); lines(th.stdout) != lines(h.stdout) {
		t.Errorf("tree:\n%s\nterraform:\n%s", h.stdout, th.stdout)
	}
	if te, _ := terraformEnv(t, tempty, nil, "modules", "-json"); te.stdout != e.stdout {
		t.Errorf("without modules, terraform prints %q", te.stdout)
	}
}

// withoutMember removes the member named key (the last of its object,
// after a comma) from a compact JSON document.
func withoutMember(t *testing.T, doc, key string) string {
	t.Helper()
	i := strings.Index(doc, `,"`+key+`":`)
	if i < 0 {
		return doc
	}
	depth, j := 0, i+len(key)+4
	for ; j < len(doc); j++ {
		switch doc[j] {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		}
		if depth == 0 {
			break
		}
	}
	if j >= len(doc) {
		t.Fatalf("unbalanced JSON after %q", key)
	}
	return doc[:i] + doc[j+1:]
}
