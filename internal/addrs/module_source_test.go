package addrs

import (
	"strings"
	"testing"
)

// The recorded forms below are what terraform init wrote in
// .terraform/modules/modules.json for the same sources.
func TestParseModuleSource(t *testing.T) {
	tests := map[string]struct {
		raw           string
		want, display string
		kind          string
		err           string
	}{
		"local":              {raw: "./modules/app/", want: "./modules/app", kind: "local"},
		"local parent":       {raw: "../shared", want: "../shared", kind: "local"},
		"registry":           {raw: "acme/thing/null", want: "registry.terraform.io/acme/thing/null", kind: "registry"},
		"registry host":      {raw: "127.0.0.1:46681/acme/thing/null", want: "127.0.0.1:46681/acme/thing/null", kind: "registry"},
		"registry full":      {raw: "Registry.Terraform.io/acme/thing/null", want: "registry.terraform.io/acme/thing/null", kind: "registry"},
		"registry subdir":    {raw: "acme/thing/null//modules/x", want: "registry.terraform.io/acme/thing/null//modules/x", display: "registry.terraform.io/acme/thing/null", kind: "registry"},
		"git https":          {raw: "git::https://example.com/mod.git?ref=v1.0.0&depth=1", want: "git::https://example.com/mod.git?ref=v1.0.0&depth=1", kind: "git"},
		"git subdir":         {raw: "git::http://127.0.0.1:1/git/mod.git//sub?ref=v1.0.0", want: "git::http://127.0.0.1:1/git/mod.git//sub?ref=v1.0.0", display: "git::http://127.0.0.1:1/git/mod.git?ref=v1.0.0", kind: "git"},
		"git ssh":            {raw: "git::ssh://git@example.com:2222/x.git", want: "git::ssh://git@example.com:2222/x.git", kind: "git"},
		"github":             {raw: "github.com/org/mod//sub?ref=v1.0.0", want: "git::https://github.com/org/mod.git//sub?ref=v1.0.0", display: "git::https://github.com/org/mod.git?ref=v1.0.0", kind: "git"},
		"github dot git":     {raw: "github.com/org/mod.git", want: "git::https://github.com/org/mod.git", kind: "git"},
		"github forced":      {raw: "git::github.com/org/mod", want: "git::https://github.com/org/mod.git", kind: "git"},
		"github path subdir": {raw: "github.com/hashicorp/example/aws", want: "git::https://github.com/hashicorp/example.git//aws", display: "git::https://github.com/hashicorp/example.git", kind: "git"},
		"bitbucket":          {raw: "bitbucket.org/org/mod", want: "git::https://bitbucket.org/org/mod.git", kind: "git"},
		"scp":                {raw: "git@github.com:org/mod.git//sub?ref=v1.0.0", want: "git::ssh://git@github.com/org/mod.git//sub?ref=v1.0.0", display: "git::ssh://git@github.com/org/mod.git?ref=v1.0.0", kind: "git"},
		"scp forced":         {raw: "git::git@example.com:org/mod.git", want: "git::ssh://git@example.com/org/mod.git", kind: "git"},
		"http archive":       {raw: "http://127.0.0.1:1/arch/noext?archive=zip", want: "http://127.0.0.1:1/arch/noext?archive=zip", kind: "http"},
		"https subdir":       {raw: "https://example.com/get/meta//sub", want: "https://example.com/get/meta//sub", display: "https://example.com/get/meta", kind: "https"},
		"absolute":           {raw: "/tmp/modsrc-x/absmod", want: "file:///tmp/modsrc-x/absmod", kind: "file"},
		"file url":           {raw: "file:///srv/mod", want: "file:///srv/mod", kind: "file"},
		"hg":                 {raw: "hg::http://x/y", want: "hg::http://x/y", kind: "hg"},
		"s3":                 {raw: "s3::https://s3.amazonaws.com/b/k.zip", want: "s3::https://s3.amazonaws.com/b/k.zip", kind: "s3"},
		"unknown host path":  {raw: "example.com/foo.zip", err: `failed to determine your intended installation method for remote module package "example.com/foo.zip"`},
		"two parts":          {raw: "a/b", err: `use "./a/b" instead`},
		"five parts":         {raw: "a/b/c/d/e", err: "failed to determine"},
		"dotted namespace":   {raw: "gitlab.com/org/repo", err: "failed to determine"},
		"query not registry": {raw: "example.com/a/b/c?x=1", err: "failed to determine"},
		"subdir escapes":     {raw: "git::https://x.invalid/r.git//../up", err: `subdirectory path "../up" leads outside of the module package`},
		"short github":       {raw: "github.com/org", err: "GitHub URLs should be github.com/username/repo"},
		"unknown forced":     {raw: "svn::https://x/y", err: `unrecognized installation method "svn"`},
		"uppercase provider": {raw: "acme/thing/NULL", err: "failed to determine"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := ParseModuleSource(tc.raw)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("got %v, %v; want error containing %q", got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tc.want {
				t.Errorf("String() = %q, want %q", got.String(), tc.want)
			}
			display := tc.display
			if display == "" {
				display = tc.want
			}
			if got.ForDisplay() != display {
				t.Errorf("ForDisplay() = %q, want %q", got.ForDisplay(), display)
			}
			kind := ""
			switch s := got.(type) {
			case ModuleSourceLocal:
				kind = "local"
			case ModuleSourceRegistry:
				kind = "registry"
			case ModuleSourceRemote:
				kind = s.Getter
			}
			if kind != tc.kind {
				t.Errorf("kind %q, want %q", kind, tc.kind)
			}
		})
	}
}

// The reasons are terraform init's for the same sources with a version.
func TestModuleRegistryAddrProblem(t *testing.T) {
	tests := map[string]string{
		"git::https://example.com/x.git": `invalid module registry hostname "git::https:"`,
		"example.com/x.zip":              "a module registry source address must have either three or four slash-separated components",
		"ac.me/thing/null":               "source address must have three more components after the hostname: the namespace, the name, and the target system",
	}
	for raw, want := range tests {
		if got := ModuleRegistryAddrProblem(raw); got != want {
			t.Errorf("ModuleRegistryAddrProblem(%q) = %q, want %q", raw, got, want)
		}
	}
}
