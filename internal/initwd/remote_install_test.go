package initwd

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/getproviders"
	"github.com/strata-dev/strata/internal/initwd/sourcetest"
)

// The tests here install modules from servers on 127.0.0.1: a module
// registry over TLS, git http-backend and plain http files.

var moduleFiles = map[string]string{
	"main.tf":     "output \"v\" {\n  value = \"top\"\n}\n",
	"sub/main.tf": "output \"v\" {\n  value = \"sub\"\n}\n",
}

// installFrom installs the working directory's modules with clients that
// trust s, returning the output and diagnostics.
func installFrom(t *testing.T, s *sourcetest.Server, upgrade bool, creds getproviders.Credentials) (string, hcl.Diagnostics) {
	t.Helper()
	mod, diags := configs.NewParser().LoadModule(".")
	if diags.HasErrors() {
		t.Fatalf("loading the root module: %s", diags)
	}
	reg := getproviders.NewRegistry(nil, creds, func(string) string { return "" })
	reg.Client = s.TLS.Client()
	var out bytes.Buffer
	_, diags = InstallModules(context.Background(), mod, Options{
		Upgrade:    upgrade,
		Log:        func(line string) { out.WriteString(line + "\n") },
		Registry:   reg,
		HTTPClient: creds.Client(s.TLS.Client()),
	})
	return out.String(), diags
}

func moduleCall(name, source, version string) string {
	v := ""
	if version != "" {
		v = fmt.Sprintf("  version = %q\n", version)
	}
	return fmt.Sprintf("module %q {\n  source = %q\n%s}\n", name, source, v)
}

// TestInstallModulesRemote installs one module of each kind and checks
// the output and the manifest against what terraform init printed and
// recorded for the same sources.
func TestInstallModulesRemote(t *testing.T) {
	s := sourcetest.New(t)
	repo := s.NewRepo("mod")
	repo.Commit(moduleFiles)
	repo.Git("tag", "v1.0.0")
	repo.Commit(map[string]string{"main.tf": "output \"v\" {\n  value = \"v2\"\n}\n"})
	repo.Push()
	s.AddFile("/arch/mod.tar.gz", sourcetest.TarGz(t, sourcetest.Files(moduleFiles)))
	s.AddFile("/arch/noext", sourcetest.Zip(t, sourcetest.Files(moduleFiles)))
	s.AddGetter("/get/hdr", s.PlainURL+"/arch/mod.tar.gz", false)
	s.AddGetter("/get/meta", "git::"+s.PlainURL+repo.Path()+"?ref=v1.0.0", true)
	s.AddGetter("/get/relative", "./mod.tar.gz//sub", false)
	s.AddFile("/get/mod.tar.gz", sourcetest.TarGz(t, sourcetest.Files(moduleFiles)))
	s.AddModule("acme/thing/null", "1.0.0", "git::"+s.PlainURL+repo.Path()+"?ref=v1.0.0")
	s.AddModule("acme/thing/null", "1.2.0", s.PlainURL+"/arch/mod.tar.gz")
	s.AddModule("acme/thing/null", "2.0.0", "./thing.tar.gz")
	s.AddFile("/v1/modules/acme/thing/null/2.0.0/thing.tar.gz", sourcetest.TarGz(t, sourcetest.Files(moduleFiles)))
	abs := t.TempDir()
	writeTree(t, abs, moduleFiles)

	main := moduleCall("reg", s.Host+"/acme/thing/null", "~> 1.0") +
		moduleCall("regsub", s.Host+"/acme/thing/null//sub", "1.0.0") +
		moduleCall("regrel", s.Host+"/acme/thing/null", "2.0.0") +
		moduleCall("gith", "git::"+s.PlainURL+repo.Path()+"?ref=v1.0.0", "") +
		moduleCall("githsub", "git::"+s.PlainURL+repo.Path()+"//sub?ref=v1.0.0&depth=1", "") +
		moduleCall("arch", s.PlainURL+"/arch/mod.tar.gz", "") +
		moduleCall("archzip", s.PlainURL+"/arch/noext?archive=zip", "") +
		moduleCall("hdr", s.URL+"/get/hdr", "") +
		moduleCall("meta", s.PlainURL+"/get/meta//sub", "") +
		moduleCall("rel", s.PlainURL+"/get/relative", "") +
		moduleCall("abs", abs, "")
	moduleWorkdir(t, map[string]string{"main.tf": main})
	out, diags := installFrom(t, s, false, nil)
	if diags.HasErrors() {
		t.Fatalf("install: %s\n%s", diags, out)
	}
	P := s.PlainURL
	wantOut := strings.Join([]string{
		"Downloading file://" + abs + " for abs...",
		"- abs in .terraform/modules/abs",
		"Downloading " + P + "/arch/mod.tar.gz for arch...",
		"- arch in .terraform/modules/arch",
		"Downloading " + P + "/arch/noext?archive=zip for archzip...",
		"- archzip in .terraform/modules/archzip",
		"Downloading git::" + P + "/git/mod.git?ref=v1.0.0 for gith...",
		"- gith in .terraform/modules/gith",
		"Downloading git::" + P + "/git/mod.git?ref=v1.0.0&depth=1 for githsub...",
		"- githsub in .terraform/modules/githsub/sub",
		"Downloading " + s.URL + "/get/hdr for hdr...",
		"- hdr in .terraform/modules/hdr",
		"Downloading " + P + "/get/meta for meta...",
		"- meta in .terraform/modules/meta/sub",
		"Downloading " + s.Host + "/acme/thing/null 1.2.0 for reg...",
		"- reg in .terraform/modules/reg",
		"Downloading " + s.Host + "/acme/thing/null 2.0.0 for regrel...",
		"- regrel in .terraform/modules/regrel",
		"Downloading " + s.Host + "/acme/thing/null 1.0.0 for regsub...",
		"- regsub in .terraform/modules/regsub/sub",
		"Downloading " + P + "/get/relative for rel...",
		"- rel in .terraform/modules/rel/sub",
	}, "\n") + "\n"
	if diff := cmp.Diff(wantOut, out); diff != "" {
		t.Errorf("wrong output (-want +got)\n%s", diff)
	}
	want := []configs.ModuleRecord{
		rootRecord(),
		{Key: "abs", Source: "file://" + abs, Dir: ".terraform/modules/abs"},
		{Key: "arch", Source: P + "/arch/mod.tar.gz", Dir: ".terraform/modules/arch"},
		{Key: "archzip", Source: P + "/arch/noext?archive=zip", Dir: ".terraform/modules/archzip"},
		{Key: "gith", Source: "git::" + P + "/git/mod.git?ref=v1.0.0", Dir: ".terraform/modules/gith"},
		{Key: "githsub", Source: "git::" + P + "/git/mod.git//sub?ref=v1.0.0&depth=1", Dir: ".terraform/modules/githsub/sub"},
		{Key: "hdr", Source: s.URL + "/get/hdr", Dir: ".terraform/modules/hdr"},
		{Key: "meta", Source: P + "/get/meta//sub", Dir: ".terraform/modules/meta/sub"},
		{Key: "reg", Source: s.Host + "/acme/thing/null", Version: "1.2.0", Dir: ".terraform/modules/reg"},
		{Key: "regrel", Source: s.Host + "/acme/thing/null", Version: "2.0.0", Dir: ".terraform/modules/regrel"},
		{Key: "regsub", Source: s.Host + "/acme/thing/null//sub", Version: "1.0.0", Dir: ".terraform/modules/regsub/sub"},
		{Key: "rel", Source: P + "/get/relative", Dir: ".terraform/modules/rel/sub"},
	}
	if diff := cmp.Diff(want, manifestRecords(t)); diff != "" {
		t.Errorf("wrong manifest (-want +got)\n%s", diff)
	}
	// The ref chose the tagged commit, not the newer one.
	if got := string(readFile(t, ".terraform/modules/gith/main.tf")); !strings.Contains(got, `"top"`) {
		t.Errorf("gith is not v1.0.0:\n%s", got)
	}
	if fi, err := os.Lstat(".terraform/modules/abs"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("an absolute path is linked, as Terraform links it: %v", err)
	}
	// Nothing is left of the downloads but the packages.
	entries, _ := os.ReadDir(ModulesDir(""))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("leftover %s in the modules directory", e.Name())
		}
	}

	// Again: everything is kept, nothing is fetched.
	before := len(s.Requests())
	out, diags = installFrom(t, s, false, nil)
	if diags.HasErrors() || out != "" {
		t.Fatalf("second install: %q %s", out, diags)
	}
	if n := len(s.Requests()) - before; n != 0 {
		t.Errorf("second install made %d requests: %v", n, s.Requests()[before:])
	}
}

// TestInstallModulesRegistryVersions: a recorded version is kept while it
// meets the constraint; -upgrade, or a constraint it no longer meets,
// resolves the newest match again.
func TestInstallModulesRegistryVersions(t *testing.T) {
	s := sourcetest.New(t)
	for _, v := range []string{"1.0.0", "1.1.0", "2.0.0", "2.1.0-beta1"} {
		s.AddFile("/pkg/"+v+".tar.gz", sourcetest.TarGz(t, sourcetest.Files(map[string]string{"main.tf": fmt.Sprintf("output \"v\" {\n  value = %q\n}\n", v)})))
		s.AddModule("acme/thing/null", v, "/pkg/"+v+".tar.gz")
	}
	src := s.Host + "/acme/thing/null"
	moduleWorkdir(t, map[string]string{"main.tf": moduleCall("m", src, "1.0.0")})
	version := func() string {
		t.Helper()
		for _, r := range manifestRecords(t) {
			if r.Key == "m" {
				if got := string(readFile(t, filepath.Join(r.Dir, "main.tf"))); !strings.Contains(got, r.Version) {
					t.Errorf("directory of %s holds\n%s", r.Version, got)
				}
				return r.Version
			}
		}
		return ""
	}
	steps := []struct {
		constraint string
		upgrade    bool
		want       string
	}{
		{"1.0.0", false, "1.0.0"},
		{"~> 1.0", false, "1.0.0"}, // still meets it: kept
		{"~> 1.0", true, "1.1.0"},  // -upgrade
		{">= 2.0", false, "2.0.0"}, // no longer meets it; no prerelease
		{"2.1.0-beta1", false, "2.1.0-beta1"},
		{"", true, "2.0.0"},
	}
	for _, st := range steps {
		writeFile(t, "main.tf", moduleCall("m", src, st.constraint))
		out, diags := installFrom(t, s, st.upgrade, nil)
		if diags.HasErrors() {
			t.Fatalf("%q: %s", st.constraint, diags)
		}
		if got := version(); got != st.want {
			t.Errorf("constraint %q upgrade=%v: installed %s, want %s\n%s", st.constraint, st.upgrade, got, st.want, out)
		}
	}

	writeFile(t, "main.tf", moduleCall("m", src, "~> 3.0"))
	_, diags := installFrom(t, s, false, nil)
	if len(diags) != 1 || diags[0].Summary != "Unresolvable module version constraint" ||
		!strings.Contains(diags[0].Detail, "The newest available version is 2.1.0-beta1.") {
		t.Errorf("wrong diagnostics: %s", diags)
	}
	writeFile(t, "main.tf", moduleCall("m", s.Host+"/acme/nope/null", ""))
	_, diags = installFrom(t, s, false, nil)
	if len(diags) != 1 || diags[0].Summary != "Module not found" ||
		diags[0].Detail != fmt.Sprintf("Module \"m\" (from main.tf:1) cannot be found in the module registry at %s.", s.Host) {
		t.Errorf("wrong diagnostics: %s", diags)
	}
}

// TestInstallModulesRegistryToken: a registry that wants a token gets the
// one of its host, and says so when it is missing.
func TestInstallModulesRegistryToken(t *testing.T) {
	s := sourcetest.New(t)
	s.RequireToken("sekrit")
	s.AddFile("/pkg/m.zip", sourcetest.Zip(t, sourcetest.Files(moduleFiles)))
	s.AddModule("acme/thing/null", "1.0.0", "/pkg/m.zip")
	moduleWorkdir(t, map[string]string{"main.tf": moduleCall("m", s.Host+"/acme/thing/null", "")})
	_, diags := installFrom(t, s, false, nil)
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, "failed to request discovery document: 401 Unauthorized") {
		t.Fatalf("wrong diagnostics without a token: %s", diags)
	}
	_, diags = installFrom(t, s, false, getproviders.Credentials{s.Host: "sekrit"})
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := s.Authorization("/v1/modules/acme/thing/null/versions"); got != "Bearer sekrit" {
		t.Errorf("versions request had Authorization %q", got)
	}
}

// TestInstallModulesUnsafeArchives: archives whose entries would land
// outside the module's directory are refused, and nothing is written
// outside .terraform/modules.
func TestInstallModulesUnsafeArchives(t *testing.T) {
	s := sourcetest.New(t)
	main := sourcetest.Entry{Name: "main.tf", Body: "output \"v\" {\n  value = 1\n}\n"}
	outside := t.TempDir()
	tests := map[string]struct {
		entries []sourcetest.Entry
		want    string
	}{
		"dot dot":              {[]sourcetest.Entry{main, {Name: "../evil.tf", Body: "x"}}, `the archive entry "../evil.tf" contains ".."`},
		"dot dot inside":       {[]sourcetest.Entry{main, {Name: "a/../../evil.tf", Body: "x"}}, `contains ".."`},
		"absolute":             {[]sourcetest.Entry{main, {Name: outside + "/evil.tf", Body: "x"}}, "has an absolute path"},
		"link to absolute":     {[]sourcetest.Entry{main, {Name: "l", Link: outside}}, "is a symbolic link to the absolute path"},
		"link up":              {[]sourcetest.Entry{main, {Name: "d/l", Link: "../../.."}}, "outside the module directory"},
		"write through link":   {[]sourcetest.Entry{main, {Name: "d", Link: "sub"}, {Name: "d/x.tf", Body: "x"}}, `is below the symbolic link "d"`},
		"link through a link":  {[]sourcetest.Entry{main, {Name: "d", Link: "."}, {Name: "e/f", Dir: true}, {Name: "up", Link: "d/../.."}}, "outside the module directory"},
		"link chain leads out": {[]sourcetest.Entry{main, {Name: "a", Link: "."}, {Name: "x/y", Dir: true}, {Name: "x/b", Link: "../a/.."}}, "leads outside the module directory"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			for _, format := range []string{"tar.gz", "zip"} {
				var data []byte
				if format == "zip" {
					data = sourcetest.Zip(t, tc.entries)
				} else {
					data = sourcetest.TarGz(t, tc.entries)
				}
				path := "/unsafe/" + strings.ReplaceAll(name, " ", "-") + "." + format
				s.AddFile(path, data)
				moduleWorkdir(t, map[string]string{"main.tf": moduleCall("m", s.PlainURL+path, "")})
				_, diags := installFrom(t, s, false, nil)
				if len(diags) != 1 || diags[0].Summary != "Failed to download module" || !strings.Contains(diags[0].Detail, tc.want) {
					t.Errorf("%s: wrong diagnostics, want one saying %q: %s", format, tc.want, diags)
				}
				if _, err := os.Stat(".terraform/modules/m"); !os.IsNotExist(err) {
					t.Errorf("%s: the refused package was installed", format)
				}
				if _, err := os.Stat(".terraform/evil.tf"); !os.IsNotExist(err) {
					t.Errorf("%s: an entry was written outside the modules directory", format)
				}
				if entries, _ := os.ReadDir(outside); len(entries) != 0 {
					t.Errorf("%s: an entry was written outside the working directory", format)
				}
			}
		})
	}

	// Links that stay inside are kept as links.
	s.AddFile("/safe.tar.gz", sourcetest.TarGz(t, []sourcetest.Entry{main, {Name: "sub/main.tf", Body: "output \"w\" {\n  value = 2\n}\n"}, {Name: "alias", Link: "sub"}, {Name: "sub/up", Link: "../main.tf"}}))
	moduleWorkdir(t, map[string]string{"main.tf": moduleCall("m", s.PlainURL+"/safe.tar.gz//alias", "")})
	if _, diags := installFrom(t, s, false, nil); diags.HasErrors() {
		t.Fatal(diags)
	}
	if got := string(readFile(t, ".terraform/modules/m/alias/up")); !strings.Contains(got, `"v"`) {
		t.Errorf("link inside the package not followed: %q", got)
	}
}

// TestInstallModulesArchiveFormats: every archive format go-getter
// unpacks for modules, by extension or by the archive argument.
func TestInstallModulesArchiveFormats(t *testing.T) {
	s := sourcetest.New(t)
	entries := sourcetest.Files(moduleFiles)
	tarball := sourcetest.Tar(t, entries)
	archives := map[string][]byte{
		"m.zip":    sourcetest.Zip(t, entries),
		"m.tar":    tarball,
		"m.tar.gz": sourcetest.TarGz(t, entries),
		"m.tgz":    sourcetest.TarGz(t, entries),
		"m.tar.xz": sourcetest.TarXz(t, entries),
		"m.txz":    sourcetest.TarXz(t, entries),
		"m-xz":     sourcetest.TarXz(t, entries),
	}
	if bz, err := exec.LookPath("bzip2"); err == nil {
		cmd := exec.Command(bz, "-c")
		cmd.Stdin = bytes.NewReader(tarball)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		archives["m.tar.bz2"], archives["m.tbz2"] = out, out
	}
	var main strings.Builder
	var names []string
	for name, data := range archives {
		s.AddFile("/a/"+name, data)
		src := s.PlainURL + "/a/" + name + "//sub"
		if name == "m-xz" {
			src += "?archive=tar.xz"
		}
		call := strings.NewReplacer(".", "_", "-", "_").Replace(name)
		names = append(names, call)
		main.WriteString(moduleCall(call, src, ""))
	}
	moduleWorkdir(t, map[string]string{"main.tf": main.String()})
	out, diags := installFrom(t, s, false, nil)
	if diags.HasErrors() {
		t.Fatalf("%s\n%s", diags, out)
	}
	for _, call := range names {
		if got := string(readFile(t, filepath.Join(".terraform/modules", call, "sub/main.tf"))); got != moduleFiles["sub/main.tf"] {
			t.Errorf("%s: sub/main.tf is %q", call, got)
		}
	}
	if !strings.Contains(out, "?archive=tar.xz for m_xz...") {
		t.Errorf("output:\n%s", out)
	}
}
