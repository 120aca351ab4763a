package configs

import (
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
)

// moduleSummary is what TestParserLoadModule_validFull checks of a loaded
// module.
type moduleSummary struct {
	RequiredVersions  []string
	RequiredProviders map[string]string // name -> "source version"
	Backend           string
	Variables         []string
	Locals            []string
	Outputs           []string
	ProviderConfigs   []string
	ManagedResources  []string
	DataResources     []string
}

func sortedKeys[T any](m map[string]T) []string {
	ret := make([]string, 0, len(m))
	for k := range m {
		ret = append(ret, k)
	}
	sort.Strings(ret)
	return ret
}

func summarizeModule(m *Module) moduleSummary {
	s := moduleSummary{
		RequiredProviders: map[string]string{},
		Variables:         sortedKeys(m.Variables),
		Locals:            sortedKeys(m.Locals),
		Outputs:           sortedKeys(m.Outputs),
		ProviderConfigs:   sortedKeys(m.ProviderConfigs),
		ManagedResources:  sortedKeys(m.ManagedResources),
		DataResources:     sortedKeys(m.DataResources),
	}
	for _, vc := range m.RequiredVersions {
		s.RequiredVersions = append(s.RequiredVersions, vc.Required.String())
	}
	for name, rp := range m.RequiredProviders {
		s.RequiredProviders[name] = rp.Source.String() + " " + rp.Requirement.Required.String()
	}
	if m.Backend != nil {
		s.Backend = m.Backend.Type
	}
	return s
}

func TestParserLoadModule_validFull(t *testing.T) {
	t.Parallel()
	p := NewParser()
	mod, diags := p.LoadModule("testdata/valid-full")
	assertDiags(t, diags, nil)

	want := moduleSummary{
		RequiredVersions:  []string{">= 1.5.0"},
		RequiredProviders: map[string]string{"random": "registry.terraform.io/hashicorp/random ~> 3.0"},
		Backend:           "local",
		Variables:         []string{"env", "password", "settings", "zones"},
		Locals:            []string{"count", "prefix"},
		Outputs:           []string{"names", "password"},
		ProviderConfigs:   []string{"random", "random.other"},
		ManagedResources:  []string{"random_pet.name", "terraform_data.web"},
		DataResources:     []string{"data.terraform_remote_state.net"},
	}
	if diff := cmp.Diff(want, summarizeModule(mod)); diff != "" {
		t.Errorf("wrong module (-want +got)\n%s", diff)
	}
	if got, want := mod.SourceDir, "testdata/valid-full"; got != want {
		t.Errorf("wrong SourceDir %q; want %q", got, want)
	}

	// Files are kept for diagnostic snippets.
	var files []string
	for name := range p.Files() {
		files = append(files, filepath.ToSlash(name))
	}
	sort.Strings(files)
	wantFiles := []string{
		"testdata/valid-full/main.tf",
		"testdata/valid-full/outputs.tf.json",
		"testdata/valid-full/variables.tf",
	}
	if diff := cmp.Diff(wantFiles, files); diff != "" {
		t.Errorf("wrong parser files (-want +got)\n%s", diff)
	}

	// Spot checks across both syntaxes.
	settings := mod.Variables["settings"]
	wantDefault := cty.ObjectVal(map[string]cty.Value{
		"size": cty.NumberIntVal(1),
		"tags": cty.MapValEmpty(cty.String),
	})
	if diff := cmp.Diff(wantDefault, settings.Default, ctyOpts); diff != "" {
		t.Errorf("wrong settings default (-want +got)\n%s", diff)
	}
	if pw := mod.Variables["password"]; !pw.Sensitive || pw.Nullable || !pw.Required() {
		t.Errorf("password: sensitive=%v nullable=%v required=%v; want true, false, true", pw.Sensitive, pw.Nullable, pw.Required())
	}
	if out := mod.Outputs["password"]; !out.Sensitive || len(out.DependsOn) != 1 || travString(out.DependsOn[0]) != "terraform_data.web" {
		t.Errorf("password output: sensitive=%v depends_on=%v", out.Sensitive, travStrings(out.DependsOn))
	}
	pet := mod.ManagedResources["random_pet.name"]
	if pet.ProviderRef == nil || pet.ProviderRef.String() != "random.other" || pet.ForEach == nil {
		t.Errorf("random_pet.name: provider=%v for_each=%v", pet.ProviderRef, pet.ForEach)
	}
	web := mod.ManagedResources["terraform_data.web"]
	if web.Count == nil || !web.Managed.CreateBeforeDestroy || len(web.Managed.Postconditions) != 1 {
		t.Errorf("terraform_data.web: count=%v lifecycle=%+v", web.Count, web.Managed)
	}
	net := mod.DataResources["data.terraform_remote_state.net"]
	if net.Mode != addrs.DataResourceMode || net.Managed != nil || len(net.DependsOn) != 1 {
		t.Errorf("data.terraform_remote_state.net: mode=%c managed=%v depends_on=%v", net.Mode, net.Managed, travStrings(net.DependsOn))
	}
}

func TestParserLoadModule_fileSelection(t *testing.T) {
	t.Parallel()
	// Each candidate file declares a variable named after itself; only the
	// configuration files count.
	files := map[string]string{
		"b.tf":             `variable "b" {}`,
		"a.tf.json":        `{"variable": {"a": {}}}`,
		"c.tf":             `variable "c" {}`,
		".hidden.tf":       `variable "hidden" {}`,
		"#autosave.tf#":    `variable "autosave" {}`,
		"#lock.tf":         `variable "lock" {}`,
		"backup.tf~":       `variable "backup" {}`,
		"notes.txt":        `variable "notes" {}`,
		"vars.tfvars":      `variable "tfvars" {}`,
		"x.json":           `{"variable": {"json": {}}}`,
		"sub/d.tf":         `variable "subdir" {}`,
		"dir.tf/inside.tf": `variable "inside" {}`,
	}
	mod, diags := loadModuleSrc(t, files)
	assertDiags(t, diags, nil)
	if diff := cmp.Diff([]string{"a", "b", "c"}, sortedKeys(mod.Variables)); diff != "" {
		t.Errorf("wrong variables (-want +got)\n%s", diff)
	}
}

func TestParserLoadModule_fileOrder(t *testing.T) {
	t.Parallel()
	// Files are loaded in lexical order, so the duplicate is reported in
	// the later file whichever way the directory lists them.
	mod, diags := loadModuleSrc(t, map[string]string{
		"z.tf":      "variable \"v\" {\n  default = \"z\"\n}\n",
		"a.tf.json": `{"variable": {"v": {"default": "a"}}}`,
		"m.tf":      "output \"o\" {\n  value = 1\n}\n",
	})
	assertDiags(t, diags, []diag{
		errDiag("Duplicate variable declaration", "z.tf:1,1-1,13"),
	})
	if mod.Variables["v"] == nil {
		t.Fatal("variable v is missing")
	}
	if _, ok := mod.Outputs["o"]; !ok {
		t.Error("output o is missing")
	}
}

func TestParserLoadModule_errors(t *testing.T) {
	t.Parallel()

	t.Run("missing directory", func(t *testing.T) {
		t.Parallel()
		mod, diags := NewParser().LoadModule(filepath.Join(t.TempDir(), "nope"))
		if mod != nil {
			t.Errorf("got a module for a missing directory")
		}
		assertDiags(t, diags, []diag{errDiag("Failed to read module directory", "")})
	})

	t.Run("empty directory", func(t *testing.T) {
		t.Parallel()
		mod, diags := NewParser().LoadModule(t.TempDir())
		assertDiags(t, diags, nil)
		if mod == nil || len(mod.Variables)+len(mod.ManagedResources)+len(mod.Outputs) != 0 {
			t.Errorf("want an empty module, got %+v", mod)
		}
	})

	t.Run("syntax errors", func(t *testing.T) {
		t.Parallel()
		// Syntax errors are reported with ranges and do not stop the other
		// files from loading.
		mod, diags := NewParser().LoadModule("testdata/invalid-syntax")
		assertDiags(t, diags, []diag{
			errDiag("Invalid expression", "b.tf:2,12-3,1"),
			errDiag("Root value must be object", "c.tf.json:1,1-1,2"),
			errDiag("Unclosed object", "c.tf.json:1,1-1,2"),
		})
		for _, name := range []string{"ok"} {
			if _, ok := mod.Variables[name]; !ok {
				t.Errorf("variable %q is missing", name)
			}
		}
		if _, ok := mod.Outputs["after"]; !ok {
			t.Errorf("output after is missing")
		}
	})
}

func TestParserParseFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name, src string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	tests := map[string]struct {
		path      string
		wantAttrs []string
		wantDiags []diag
	}{
		"native": {
			path:      write("a.tf", "x = 1\ny = 2\n"),
			wantAttrs: []string{"x", "y"},
		},
		"json": {
			path:      write("a.tf.json", `{"x": 1}`),
			wantAttrs: []string{"x"},
		},
		"tfvars": {
			path:      write("a.tfvars", `z = "a"`),
			wantAttrs: []string{"z"},
		},
		"json syntax in a native file": {
			path:      write("b.tf", `{"x": 1}`),
			wantDiags: []diag{errDiag("Argument or block definition required", "b.tf:1,1-1,2")},
		},
		"missing": {
			path:      filepath.Join(dir, "missing.tf"),
			wantDiags: []diag{errDiag("Failed to read file", "")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			f, diags := NewParser().ParseFile(tc.path)
			assertDiags(t, diags, tc.wantDiags)
			if tc.wantAttrs == nil {
				return
			}
			attrs, adiags := f.Body.JustAttributes()
			assertDiags(t, adiags, nil)
			if diff := cmp.Diff(tc.wantAttrs, sortedKeys(attrs)); diff != "" {
				t.Errorf("wrong attributes (-want +got)\n%s", diff)
			}
		})
	}
}

func TestConfigFileNames(t *testing.T) {
	tests := map[string]struct {
		in, want []string
	}{
		"terraform only":   {[]string{"b.tf", "a.tf.json", "x.tfvars", "README.md"}, []string{"a.tf.json", "b.tf"}},
		"tofu shadows tf":  {[]string{"main.tf", "main.tofu", "other.tf"}, []string{"main.tofu", "other.tf"}},
		"json pairs":       {[]string{"a.tf.json", "a.tofu.json", "a.tf"}, []string{"a.tf", "a.tofu.json"}},
		"no cross shadow":  {[]string{"a.tf.json", "a.tofu"}, []string{"a.tf.json", "a.tofu"}},
		"override files":   {[]string{"override.tf", "override.tofu", "x_override.tf.json"}, []string{"override.tofu", "x_override.tf.json"}},
		"tofu alone":       {[]string{"z.tofu", "y.tofu.json"}, []string{"y.tofu.json", "z.tofu"}},
		"not config files": {[]string{"a.tofutest.hcl", "a.tftest.hcl", "tofu", "a.tfstate"}, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, ConfigFileNames(tc.in)); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
}
