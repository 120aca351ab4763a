package initwd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/configs"
	"github.com/strata-dev/strata/internal/initwd/sourcetest"
)

func TestModuleSourceNormalizeLocal(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"./modules/app":    "./modules/app",
		"./modules/app/":   "./modules/app",
		"./modules//app":   "./modules/app",
		"./a/../b":         "./b",
		"../shared":        "../shared",
		"../shared/./x":    "../shared/x",
		"./modules/../../": "./..",
		"../":              "./..",
		"./":               "./.",
	}
	for src, want := range tests {
		t.Run(src, func(t *testing.T) {
			got, err := addrs.ParseModuleSource(src)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != want {
				t.Errorf("ParseModuleSource(%q) = %q, want %q", src, got, want)
			}
		})
	}
}

func TestModuleSourceParseGit(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		src     string
		want    gitSource
		wantErr string
	}{
		"plain": {
			src:  "git::file:///srv/net.git",
			want: gitSource{repo: "file:///srv/net.git"},
		},
		"ref": {
			src:  "git::file:///srv/net.git?ref=v1.0",
			want: gitSource{repo: "file:///srv/net.git", ref: "v1.0"},
		},
		"subdir and ref": {
			src:  "git::file:///srv/net.git//modules/vpc?ref=v1.0",
			want: gitSource{repo: "file:///srv/net.git", ref: "v1.0"},
		},
		"subdir cleaned": {
			src:  "git::file:///srv/net.git//vpc/",
			want: gitSource{repo: "file:///srv/net.git"},
		},
		"depth": {
			src:  "git::file:///srv/net.git?ref=main&depth=1",
			want: gitSource{repo: "file:///srv/net.git", ref: "main", depth: 1},
		},
		"commit": {
			src:  "git::file:///srv/net.git?ref=0123456789abcdef0123456789abcdef01234567",
			want: gitSource{repo: "file:///srv/net.git", ref: "0123456789abcdef0123456789abcdef01234567"},
		},
		"subdir escapes":    {src: "git::file:///srv/net.git//../x", wantErr: "leads outside of the module package"},
		"empty ref":         {src: "git::file:///srv/net.git?ref=", wantErr: "ref argument is empty"},
		"option as ref":     {src: "git::file:///srv/net.git?ref=--upload-pack=x", wantErr: "is not a tag, branch or commit"},
		"bad depth":         {src: "git::file:///srv/net.git?depth=deep", wantErr: "not a whole number"},
		"sshkey not ssh":    {src: "git::file:///srv/net.git?sshkey=abc", wantErr: "sshkey argument is only for ssh://"},
		"sshkey not base64": {src: "git@example.com:net.git?sshkey=!!!", wantErr: "not a base64-encoded private key"},
		"sshkey":            {src: "git::ssh://git@example.com/net.git?ref=v1&sshkey=a2V5", want: gitSource{repo: "ssh://git@example.com/net.git", ref: "v1", sshKey: []byte("key")}},
		"unknown argument":  {src: "git::file:///srv/net.git?x=1", wantErr: `argument "x" is not supported`},
		"https":             {src: "git::https://example.com/net.git?ref=v1&depth=2", want: gitSource{repo: "https://example.com/net.git", ref: "v1", depth: 2}},
		"ssh":               {src: "git::ssh://git@example.com:2222/net.git", want: gitSource{repo: "ssh://git@example.com:2222/net.git"}},
		"scp":               {src: "git@example.com:org/net.git?ref=main", want: gitSource{repo: "ssh://git@example.com/org/net.git", ref: "main"}},
		"github":            {src: "github.com/org/net//sub?ref=v2", want: gitSource{repo: "https://github.com/org/net.git", ref: "v2"}},
		"no path":           {src: "git::file://", wantErr: "needs the path of a repository"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			src, err := addrs.ParseModuleSource(tc.src)
			var got gitSource
			if err == nil {
				got, err = parseGitSource(src.(addrs.ModuleSourceRemote))
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("wrong error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got, cmp.AllowUnexported(gitSource{})); diff != "" {
				t.Errorf("wrong result (-want +got)\n%s", diff)
			}
		})
	}
}

// moduleWorkdir writes files (slash-separated path to content) into a new
// temporary directory and makes it the working directory for the rest of
// the test.
func moduleWorkdir(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	writeTree(t, dir, files)
	t.Chdir(dir)
	return dir
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, src := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, p, src)
	}
}

// runModuleInstall loads the root module of the working directory and
// installs its modules in-process, returning the output and diagnostics.
func runModuleInstall(t *testing.T, upgrade bool) (string, hcl.Diagnostics) {
	t.Helper()
	p := configs.NewParser()
	mod, diags := p.LoadModule(".")
	if diags.HasErrors() {
		t.Fatalf("loading the root module: %s", diags)
	}
	var out bytes.Buffer
	_, diags = InstallModules(context.Background(), mod, Options{Upgrade: upgrade, Output: func(_, _, plain string) { out.WriteString(plain + "\n") }, Log: func(line string) { out.WriteString(line + "\n") }})
	return out.String(), diags
}

// manifestRecords reads the manifest of the working directory.
func manifestRecords(t *testing.T) []configs.ModuleRecord {
	t.Helper()
	mf, err := configs.ReadModuleManifest(configs.ManifestPath())
	if err != nil {
		t.Fatal(err)
	}
	return mf.Modules
}

func rootRecord() configs.ModuleRecord { return configs.ModuleRecord{Key: "", Source: "", Dir: "."} }

func diagSummaries(diags hcl.Diagnostics) []string {
	var out []string
	for _, d := range diags {
		out = append(out, d.Summary)
	}
	return out
}

func TestInstallModulesLocal(t *testing.T) {
	tests := map[string]struct {
		files       map[string]string
		wantOut     string
		wantRecords []configs.ModuleRecord
		// wantDiags are the summaries of the diagnostics; wantDetail a
		// phrase of the first one's detail.
		wantDiags  []string
		wantDetail string
		// wantSubject is the text the first diagnostic's subject covers.
		wantSubject string
	}{
		"no modules": {
			files: map[string]string{"main.tf": `output "a" { value = 1 }`},
		},
		"nested and sibling": {
			files: map[string]string{
				"main.tf":                     "module \"net\" {\n  source = \"./modules/net\"\n}\nmodule \"app\" {\n  source = \"./modules/app/\"\n}\n",
				"modules/net/main.tf":         "module \"subnets\" {\n  source = \"./subnets\"\n}\nmodule \"sib\" {\n  source = \"../app\"\n}\n",
				"modules/net/subnets/main.tf": `output "x" { value = 1 }`,
				"modules/app/main.tf":         `output "y" { value = 2 }`,
			},
			wantOut: "Initializing modules...\n- app in modules/app\n- net in modules/net\n- net.sib in modules/app\n- net.subnets in modules/net/subnets\n",
			wantRecords: []configs.ModuleRecord{
				rootRecord(),
				{Key: "app", Source: "./modules/app", Dir: "modules/app"},
				{Key: "net", Source: "./modules/net", Dir: "modules/net"},
				{Key: "net.sib", Source: "../app", Dir: "modules/app"},
				{Key: "net.subnets", Source: "./subnets", Dir: "modules/net/subnets"},
			},
		},
		"missing directory": {
			files:       map[string]string{"main.tf": "module \"gone\" {\n  source = \"./gone\"\n}\n"},
			wantOut:     "Initializing modules...\n",
			wantRecords: []configs.ModuleRecord{rootRecord()},
			wantDiags:   []string{"Unreadable module directory"},
			wantDetail:  `The directory gone for module "gone" does not exist`,
			wantSubject: `"./gone"`,
		},
		"version on a local source": {
			files: map[string]string{
				"main.tf":   "module \"l\" {\n  source  = \"./l\"\n  version = \"1.0\"\n}\n",
				"l/main.tf": `output "a" { value = 1 }`,
			},
			wantOut:     "Initializing modules...\n",
			wantRecords: []configs.ModuleRecord{rootRecord()},
			wantDiags:   []string{"Invalid registry module source address"},
			wantDetail:  `can't use local directory "./l" as a module registry address`,
			wantSubject: `"./l"`,
		},
		"module calls itself": {
			files: map[string]string{
				"main.tf":   "module \"a\" {\n  source = \"./a\"\n}\n",
				"a/main.tf": "module \"again\" {\n  source = \"../a\"\n}\n",
			},
			wantOut:     "Initializing modules...\n- a in a\n- a.again in a\n",
			wantRecords: []configs.ModuleRecord{rootRecord(), {Key: "a", Source: "./a", Dir: "a"}},
			wantDiags:   []string{"Module calls itself"},
			wantSubject: `"../a"`,
		},
		"syntax error in a module": {
			files: map[string]string{
				"main.tf":     "module \"bad\" {\n  source = \"./bad\"\n}\n",
				"bad/main.tf": "resource \"x\" {\n",
			},
			wantOut:     "Initializing modules...\n- bad in bad\n",
			wantRecords: []configs.ModuleRecord{rootRecord(), {Key: "bad", Source: "./bad", Dir: "bad"}},
			wantDiags:   []string{"Unclosed configuration block", "Missing name for resource"},
		},
		"warning in a module": {
			files: map[string]string{
				"main.tf":      "module \"warn\" {\n  source = \"./warn\"\n}\n",
				"warn/main.tf": "resource \"terraform_data\" \"a\" {}\nresource \"terraform_data\" \"b\" {\n  depends_on = [\"terraform_data.a\"]\n}\n",
			},
			// Loading the whole configuration after installing reports it.
			wantOut:     "Initializing modules...\n- warn in warn\n",
			wantRecords: []configs.ModuleRecord{rootRecord(), {Key: "warn", Source: "./warn", Dir: "warn"}},
		},
		"unreachable registry next to a local one": {
			files: map[string]string{
				"main.tf":    "module \"ok\" {\n  source = \"./ok\"\n}\nmodule \"consul\" {\n  source  = \"127.0.0.1:1/hashicorp/consul/aws\"\n  version = \"0.1.0\"\n}\n",
				"ok/main.tf": `output "a" { value = 1 }`,
			},
			wantOut:     "Initializing modules...\n- ok in ok\n",
			wantRecords: []configs.ModuleRecord{rootRecord(), {Key: "ok", Source: "./ok", Dir: "ok"}},
			wantDiags:   []string{"Error accessing remote module registry"},
			wantDetail:  `Failed to retrieve available versions for module "consul" (main.tf:4) from 127.0.0.1:1: failed to request discovery document`,
			wantSubject: `module "consul"`,
		},
		"unreachable git server in a nested module": {
			files: map[string]string{
				"main.tf":     "module \"net\" {\n  source = \"./net\"\n}\n",
				"net/main.tf": "module \"vpc\" {\n  source = \"git::http://127.0.0.1:1/vpc.git?ref=v1\"\n}\n",
			},
			wantOut:     "Initializing modules...\n- net in net\nDownloading git::http://127.0.0.1:1/vpc.git?ref=v1 for net.vpc...\n",
			wantRecords: []configs.ModuleRecord{rootRecord(), {Key: "net", Source: "./net", Dir: "net"}},
			wantDiags:   []string{"Failed to download module"},
			wantDetail:  `Could not download module "vpc" (net/main.tf:1) source code from "git::http://127.0.0.1:1/vpc.git?ref=v1": error downloading 'http://127.0.0.1:1/vpc.git?ref=v1': `,
			wantSubject: `module "vpc"`,
		},
		"unparsable source": {
			files:       map[string]string{"main.tf": "module \"x\" {\n  source = \"example.com/x.zip\"\n}\n"},
			wantOut:     "Initializing modules...\n",
			wantRecords: []configs.ModuleRecord{rootRecord()},
			wantDiags:   []string{"Invalid module source address"},
			wantDetail:  `use "./example.com/x.zip" instead`,
			wantSubject: `"example.com/x.zip"`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			moduleWorkdir(t, tc.files)
			out, diags := runModuleInstall(t, false)
			if diff := cmp.Diff(tc.wantOut, out); diff != "" {
				t.Errorf("wrong output (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantDiags, diagSummaries(diags)); diff != "" {
				t.Fatalf("wrong diagnostics (-want +got)\n%s\n%s", diff, diags)
			}
			if tc.wantDetail != "" && !strings.Contains(diags[0].Detail, tc.wantDetail) {
				t.Errorf("detail %q does not say %q", diags[0].Detail, tc.wantDetail)
			}
			if tc.wantSubject != "" {
				if diags[0].Subject == nil {
					t.Fatalf("diagnostic has no subject")
				}
				src := readFile(t, diags[0].Subject.Filename)
				if got := string(diags[0].Subject.SliceBytes(src)); got != tc.wantSubject {
					t.Errorf("subject covers %q, want %q", got, tc.wantSubject)
				}
			}
			if tc.wantRecords == nil {
				if _, err := os.Stat(configs.ManifestPath()); !os.IsNotExist(err) {
					t.Errorf("a configuration without module calls got a manifest (%v)", err)
				}
				return
			}
			if diff := cmp.Diff(tc.wantRecords, manifestRecords(t)); diff != "" {
				t.Errorf("wrong manifest (-want +got)\n%s", diff)
			}
		})
	}
}

// TestInstallModulesReinit: a second init keeps what is installed and
// prints nothing for it; a changed source is installed again, with the
// modules below it; records of removed calls stay, as in Terraform; and
// -upgrade installs everything again.
func TestInstallModulesReinit(t *testing.T) {
	dir := moduleWorkdir(t, map[string]string{
		"main.tf":            "module \"net\" {\n  source = \"./net\"\n}\nmodule \"old\" {\n  source = \"./old\"\n}\n",
		"net/main.tf":        "module \"sub\" {\n  source = \"./sub\"\n}\n",
		"net/sub/main.tf":    `output "a" { value = 1 }`,
		"net2/main.tf":       "module \"other\" {\n  source = \"./other\"\n}\n",
		"net2/other/main.tf": `output "b" { value = 2 }`,
		"old/main.tf":        `output "c" { value = 3 }`,
	})
	if _, diags := runModuleInstall(t, false); diags.HasErrors() {
		t.Fatal(diags)
	}

	out, diags := runModuleInstall(t, false)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if want := "Initializing modules...\n"; out != want {
		t.Errorf("re-init printed %q, want %q", out, want)
	}

	writeFile(t, filepath.Join(dir, "main.tf"), "module \"net\" {\n  source = \"./net2\"\n}\n")
	out, diags = runModuleInstall(t, false)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if want := "Initializing modules...\n- net in net2\n- net.other in net2/other\n"; out != want {
		t.Errorf("changed source printed %q, want %q", out, want)
	}
	want := []configs.ModuleRecord{
		rootRecord(),
		{Key: "net", Source: "./net2", Dir: "net2"},
		{Key: "net.other", Source: "./other", Dir: "net2/other"},
		{Key: "old", Source: "./old", Dir: "old"},
	}
	if diff := cmp.Diff(want, manifestRecords(t)); diff != "" {
		t.Errorf("wrong manifest (-want +got)\n%s", diff)
	}

	out, diags = runModuleInstall(t, true)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if want := "Upgrading modules...\n- net in net2\n- net.other in net2/other\n"; out != want {
		t.Errorf("-upgrade printed %q, want %q", out, want)
	}
}

func TestInstallModulesGit(t *testing.T) {
	bare, v1 := sourcetest.ModuleRepo(t)
	url := "git::file://" + filepath.ToSlash(bare)
	tests := map[string]struct {
		source      string
		wantOut     string
		wantRecords []configs.ModuleRecord
		// wantVersion is the version output of the installed vpc module.
		wantVersion string
		wantDiags   []string
		wantDetail  string
	}{
		"tag and subdir": {
			source:  url + "//vpc?ref=v1.0",
			wantOut: "Initializing modules...\nDownloading " + url + "?ref=v1.0 for g...\n- g in .terraform/modules/g/vpc\n- g.inner in .terraform/modules/g/vpc/inner\n",
			wantRecords: []configs.ModuleRecord{
				rootRecord(),
				{Key: "g", Source: url + "//vpc?ref=v1.0", Dir: ".terraform/modules/g/vpc"},
				{Key: "g.inner", Source: "./inner", Dir: ".terraform/modules/g/vpc/inner"},
			},
			wantVersion: "one",
		},
		"default branch": {
			source:      url + "//vpc",
			wantOut:     "Initializing modules...\nDownloading " + url + " for g...\n- g in .terraform/modules/g/vpc\n- g.inner in .terraform/modules/g/vpc/inner\n",
			wantVersion: "two",
		},
		"branch": {
			source:      url + "//vpc?ref=dev",
			wantOut:     "Initializing modules...\nDownloading " + url + "?ref=dev for g...\n- g in .terraform/modules/g/vpc\n- g.inner in .terraform/modules/g/vpc/inner\n",
			wantVersion: "one",
		},
		"commit": {
			source:      url + "//vpc?ref=" + v1,
			wantOut:     "Initializing modules...\nDownloading " + url + "?ref=" + v1 + " for g...\n- g in .terraform/modules/g/vpc\n- g.inner in .terraform/modules/g/vpc/inner\n",
			wantVersion: "one",
		},
		"shallow": {
			source:      url + "//vpc?ref=v1.0&depth=1",
			wantOut:     "Initializing modules...\nDownloading " + url + "?ref=v1.0&depth=1 for g...\n- g in .terraform/modules/g/vpc\n- g.inner in .terraform/modules/g/vpc/inner\n",
			wantVersion: "one",
		},
		"whole repository": {
			source:  url + "?ref=v1.0",
			wantOut: "Initializing modules...\nDownloading " + url + "?ref=v1.0 for g...\n- g in .terraform/modules/g\n",
			wantRecords: []configs.ModuleRecord{
				rootRecord(),
				{Key: "g", Source: url + "?ref=v1.0", Dir: ".terraform/modules/g"},
			},
		},
		"unknown ref": {
			source:     url + "?ref=nope",
			wantOut:    "Initializing modules...\nDownloading " + url + "?ref=nope for g...\n",
			wantDiags:  []string{"Failed to download module"},
			wantDetail: `Could not download module "g" (main.tf:1) source code from "` + url + `?ref=nope": error downloading '`,
		},
		"no repository": {
			source:     "git::file:///nonexistent/repo.git",
			wantOut:    "Initializing modules...\nDownloading git::file:///nonexistent/repo.git for g...\n",
			wantDiags:  []string{"Failed to download module"},
			wantDetail: `Could not download module "g" (main.tf:1) source code from "git::file:///nonexistent/repo.git": error downloading 'file:///nonexistent/repo.git': `,
		},
		"missing subdirectory": {
			source:     url + "//nothere?ref=v1.0",
			wantOut:    "Initializing modules...\nDownloading " + url + "?ref=v1.0 for g...\n",
			wantDiags:  []string{"Unreadable module directory"},
			wantDetail: `The directory .terraform/modules/g/nothere for module "g" does not exist`,
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			moduleWorkdir(t, map[string]string{"main.tf": "module \"g\" {\n  source = \"" + tc.source + "\"\n}\n"})
			out, diags := runModuleInstall(t, false)
			if diff := cmp.Diff(tc.wantOut, out); diff != "" {
				t.Errorf("wrong output (-want +got)\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantDiags, diagSummaries(diags)); diff != "" {
				t.Fatalf("wrong diagnostics (-want +got)\n%s\n%s", diff, diags)
			}
			if tc.wantDetail != "" && !strings.Contains(diags[0].Detail, tc.wantDetail) {
				t.Errorf("detail %q does not say %q", diags[0].Detail, tc.wantDetail)
			}
			if tc.wantRecords != nil {
				if diff := cmp.Diff(tc.wantRecords, manifestRecords(t)); diff != "" {
					t.Errorf("wrong manifest (-want +got)\n%s", diff)
				}
			}
			if tc.wantVersion != "" {
				src := string(readFile(t, ".terraform/modules/g/vpc/main.tf"))
				if !strings.Contains(src, `"`+tc.wantVersion+`"`) {
					t.Errorf("installed the wrong version of the module:\n%s", src)
				}
			}
		})
	}
}

// TestInstallModulesGitReinit: an installed git module is kept while its
// source is unchanged, even when the repository moves on; -upgrade and a
// changed source fetch it again.
func TestInstallModulesGitReinit(t *testing.T) {
	r := sourcetest.NewGitRepo(t)
	r.Commit(map[string]string{"main.tf": `output "version" { value = "one" }`}, "")
	bare := r.Bare()
	url := "git::file://" + filepath.ToSlash(bare)
	dir := moduleWorkdir(t, map[string]string{"main.tf": "module \"g\" {\n  source = \"" + url + "?ref=main\"\n}\n"})
	installed := func() string { return string(readFile(t, ".terraform/modules/g/main.tf")) }

	if _, diags := runModuleInstall(t, false); diags.HasErrors() {
		t.Fatal(diags)
	}
	r.Commit(map[string]string{"main.tf": `output "version" { value = "two" }`}, "v2")
	r.Bare()

	out, diags := runModuleInstall(t, false)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if out != "Initializing modules...\n" || !strings.Contains(installed(), "one") {
		t.Errorf("re-init did not keep the installed module: printed %q, installed:\n%s", out, installed())
	}

	out, diags = runModuleInstall(t, true)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if want := "Upgrading modules...\nDownloading " + url + "?ref=main for g...\n- g in .terraform/modules/g\n"; out != want || !strings.Contains(installed(), "two") {
		t.Errorf("-upgrade did not fetch again: printed %q, want %q; installed:\n%s", out, want, installed())
	}

	// Back to the first commit by a changed source.
	writeFile(t, filepath.Join(dir, "main.tf"), "module \"g\" {\n  source = \""+url+"?ref=main~1\"\n}\n")
	out, diags = runModuleInstall(t, false)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	if !strings.Contains(out, "Downloading "+url+"?ref=main~1 for g...") || !strings.Contains(installed(), "one") {
		t.Errorf("a changed source was not fetched again: printed %q, installed:\n%s", out, installed())
	}

	// A deleted installation is installed again.
	if err := os.RemoveAll(filepath.Join(dir, ".terraform", "modules", "g")); err != nil {
		t.Fatal(err)
	}
	if out, diags = runModuleInstall(t, false); diags.HasErrors() || !strings.Contains(out, "Downloading") {
		t.Errorf("a deleted module was not installed again: printed %q, %s", out, diags)
	}
}

// TestInstallModulesGitPackage: local calls inside a cloned package
// resolve relative to the installed directory and must stay inside the
// package.
func TestInstallModulesGitPackage(t *testing.T) {
	r := sourcetest.NewGitRepo(t)
	r.Commit(map[string]string{
		"vpc/main.tf":   "module \"up\" {\n  source = \"../other\"\n}\nmodule \"esc\" {\n  source = \"../../escape\"\n}\n",
		"other/main.tf": `output "o" { value = 1 }`,
	}, "")
	url := "git::file://" + filepath.ToSlash(r.Bare())
	moduleWorkdir(t, map[string]string{
		"main.tf":        "module \"g\" {\n  source = \"" + url + "//vpc\"\n}\n",
		"escape/main.tf": `output "e" { value = 1 }`,
	})
	out, diags := runModuleInstall(t, false)
	want := "Initializing modules...\nDownloading " + url + " for g...\n- g in .terraform/modules/g/vpc\n- g.up in .terraform/modules/g/other\n"
	if diff := cmp.Diff(want, out); diff != "" {
		t.Errorf("wrong output (-want +got)\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Local module path escapes module package"}, diagSummaries(diags)); diff != "" {
		t.Fatalf("wrong diagnostics (-want +got)\n%s\n%s", diff, diags)
	}
	if !strings.Contains(diags[0].Detail, "module.g.module.esc") || !strings.Contains(diags[0].Detail, `"`+url+`"`) {
		t.Errorf("detail does not name the module and package: %s", diags[0].Detail)
	}
}

// TestInstallModulesGitMissing: without git on PATH, a git source fails
// with an error naming the module and the source.
func TestInstallModulesGitMissing(t *testing.T) {
	moduleWorkdir(t, map[string]string{"main.tf": "module \"g\" {\n  source = \"git::file:///srv/net.git?ref=v1\"\n}\n"})
	t.Setenv("PATH", t.TempDir())
	_, diags := runModuleInstall(t, false)
	if diff := cmp.Diff([]string{"Failed to download module"}, diagSummaries(diags)); diff != "" {
		t.Fatalf("wrong diagnostics (-want +got)\n%s\n%s", diff, diags)
	}
	for _, want := range []string{`module "g"`, `"git::file:///srv/net.git?ref=v1"`, "git was not found on PATH"} {
		if !strings.Contains(diags[0].Detail, want) {
			t.Errorf("detail does not say %s: %s", want, diags[0].Detail)
		}
	}
}

func writeFile(t *testing.T, path, src string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestGitLookPath: git is found on the PATH of the command's environment
// (not the process's): an executable file in an absolute directory, the
// first one listed.
func TestGitLookPath(t *testing.T) {
	exe, plain, second := t.TempDir(), t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(plain, "git"), "")
	for _, dir := range []string{exe, second} {
		writeFile(t, filepath.Join(dir, "git"), "#!/bin/sh\n")
		if err := os.Chmod(filepath.Join(dir, "git"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, path, want string
	}{
		{"found", exe, filepath.Join(exe, "git")},
		{"first wins", plain + string(filepath.ListSeparator) + second + string(filepath.ListSeparator) + exe, filepath.Join(second, "git")},
		{"not executable", plain, ""},
		{"relative entries skipped", "." + string(filepath.ListSeparator) + "rel", ""},
		{"empty PATH", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := gitRunner{environ: []string{"PATH=/nowhere", "PATH=" + tc.path}}
			got, err := g.lookPath("git")
			if got != tc.want || (tc.want == "") != (err != nil) {
				t.Errorf("lookPath = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
