package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/provbuild"
)

// upstreamStrictReleases are the upstream providers strict mode is
// checked on, as website/docs/lifecycle.md lists them.
var upstreamStrictReleases = []provbuild.Release{
	{Name: "random", Version: "3.9.0"},
	{Name: "null", Version: "3.3.1"},
	{Name: "local", Version: "2.5.2"},
}

// upstreamMirror builds releases from their repositories (the search
// tool's mirror, or STRATA_PROVIDER_REPOS) into the cache make compat
// uses, and returns a CLI configuration installing them. The test is
// skipped when a repository is missing.
func upstreamMirror(t *testing.T, releases []provbuild.Release) string {
	t.Helper()
	repos := os.Getenv("STRATA_PROVIDER_REPOS")
	if repos == "" {
		repos = "/work/.mirror"
	}
	cacheRoot, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no cache directory: %v", err)
	}
	cache := filepath.Join(cacheRoot, "strata-compat")
	bins := map[provbuild.Release]string{}
	for _, r := range releases {
		if _, err := provbuild.RepoDir(repos, r.Name); err != nil {
			t.Skipf("cannot build the upstream providers: %v", err)
		}
		bin, err := provbuild.Build(cache, repos, r, t.Logf)
		if err != nil {
			t.Fatal(err)
		}
		bins[r] = bin
	}
	cfg, err := provbuild.WriteMirror(filepath.Join(t.TempDir(), "mirror"), bins)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

const upstreamStrictConfig = `terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "3.9.0" }
    null   = { source = "hashicorp/null", version = "3.3.1" }
    local  = { source = "hashicorp/local", version = "2.5.2" }
  }
}
variable "content" {
  default = "one"
}
resource "random_string" "s" {
  length  = 12
  special = false
}
resource "random_password" "p" {
  length = 16
}
resource "random_id" "i" {
  byte_length = 4
  keepers     = { content = var.content }
}
resource "random_integer" "n" {
  min = 1
  max = 100
}
resource "random_pet" "pet" {
  length = 2
}
resource "random_shuffle" "sh" {
  input        = ["a", "b", "c"]
  result_count = 2
}
resource "random_uuid" "u" {}
resource "null_resource" "n" {
  triggers = { content = var.content }
}
resource "local_file" "f" {
  filename = "${path.module}/out.txt"
  content  = "${var.content} ${random_string.s.result}"
}
resource "local_sensitive_file" "sf" {
  filename = "${path.module}/secret.txt"
  content  = random_password.p.result
}
data "local_file" "back" {
  filename = local_file.f.filename
}
output "back" {
  value = data.local_file.back.content
}
`

// TestE2EUpstreamProvidersStrict: the upstream random, null and local
// providers keep the provider contract: apply -strict (which reads every
// object back after creating or replacing it) succeeds, and a strict
// plan afterwards has no changes.
func TestE2EUpstreamProvidersStrict(t *testing.T) {
	t.Parallel()
	env := []string{"TF_CLI_CONFIG_FILE=" + upstreamMirror(t, upstreamStrictReleases)}
	dir := writeFiles(t, map[string]string{"main.tf": upstreamStrictConfig})
	if r := runEnv(t, dir, env, strataBin, "init", "-no-color"); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	for _, step := range []struct {
		name string
		args []string
	}{
		{"create", []string{"apply", "-strict", "-auto-approve", "-no-color"}},
		{"no changes", []string{"plan", "-strict", "-detailed-exitcode", "-no-color"}},
		{"replace and update", []string{"apply", "-strict", "-auto-approve", "-no-color", "-var", "content=two"}},
		{"no changes again", []string{"plan", "-strict", "-detailed-exitcode", "-no-color", "-var", "content=two"}},
	} {
		r := runEnv(t, dir, env, strataBin, step.args...)
		if r.code != 0 || strings.Contains(r.stdout+r.stderr, "contract") {
			t.Fatalf("%s: exit %d\n%s%s", step.name, r.code, r.stdout, r.stderr)
		}
	}
}
