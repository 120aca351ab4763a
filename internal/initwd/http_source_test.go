package initwd

import (
	"net/url"
	"testing"
)

func TestTerraformGetMeta(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		`<meta name="terraform-get" content="git::https://x/y.git">`:                             "git::https://x/y.git",
		`<html><head><META content='https://x/a.zip?x=1&amp;y=2' NAME="terraform-get"/>`:         "https://x/a.zip?x=1&y=2",
		`<meta name="go-import" content="x git y"><meta name="terraform-get" content="./m.tgz">`: "./m.tgz",
		`<meta name="terraform-get" content="">`:                                                 "",
		`<p>no meta</p>`:                                                                         "",
	}
	for body, want := range tests {
		if got := terraformGetMeta([]byte(body)); got != want {
			t.Errorf("terraformGetMeta(%q) = %q, want %q", body, got, want)
		}
	}
}

func TestResolvePackageAddr(t *testing.T) {
	t.Parallel()
	base, _ := url.Parse("https://reg.example/v1/modules/a/b/c/1.0.0/download")
	tests := map[string]string{
		"./pkg.tar.gz":                        "https://reg.example/v1/modules/a/b/c/1.0.0/pkg.tar.gz",
		"../../x.zip//sub":                    "https://reg.example/v1/modules/a/b/x.zip//sub",
		"/archives/m.zip?archive=zip":         "https://reg.example/archives/m.zip?archive=zip",
		"git::https://g.example/m.git?ref=v1": "git::https://g.example/m.git?ref=v1",
		"github.com/org/repo//sub":            "git::https://github.com/org/repo.git//sub",
		"https://cdn.example/m.tgz":           "https://cdn.example/m.tgz",
	}
	for target, want := range tests {
		got, err := resolvePackageAddr(base, target)
		if err != nil {
			t.Errorf("%q: %v", target, err)
			continue
		}
		if got.String() != want {
			t.Errorf("resolvePackageAddr(%q) = %q, want %q", target, got, want)
		}
	}
	if _, err := resolvePackageAddr(base, "example.com/m.zip"); err == nil {
		t.Errorf("an address without scheme or shorthand was accepted")
	}
}
