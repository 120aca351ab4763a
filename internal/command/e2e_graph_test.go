package command

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// graphModulesConfig has nested modules, a module call with count and
// depends_on, a data source and chains of references long enough for
// the resources-only graph to leave out implied edges.
var graphModulesConfig = map[string]string{
	"main.tf": `resource "terraform_data" "z" {}
data "terraform_remote_state" "rs" {
  backend = "local"
  config  = { path = "x.tfstate" }
}
resource "terraform_data" "a" {
  input = data.terraform_remote_state.rs.outputs
}
module "m" {
  source = "./m"
  in     = terraform_data.a.output
}
module "b" {
  source     = "./m"
  count      = 2
  in         = module.m.out
  depends_on = [terraform_data.z]
}
resource "terraform_data" "after" {
  input = [module.b[0].out, terraform_data.z.id]
}
`,
	"m/main.tf": `variable "in" {}
resource "terraform_data" "c" {
  input = var.in
}
resource "terraform_data" "d" {
  input = terraform_data.c.id
}
module "n" {
  source = "./n"
  x      = terraform_data.d.id
}
output "out" {
  value = module.n.y
}
`,
	"m/n/main.tf": `variable "x" {}
resource "terraform_data" "e" {
  input = var.x
}
output "y" {
  value = terraform_data.e.id
}
`,
}

const graphModulesWant = `digraph G {
  rankdir = "RL";
  node [shape = rect, fontname = "sans-serif"];
  "data.terraform_remote_state.rs" [label="data.terraform_remote_state.rs"];
  "terraform_data.a" [label="terraform_data.a"];
  "terraform_data.after" [label="terraform_data.after"];
  "terraform_data.z" [label="terraform_data.z"];
  subgraph "cluster_module.b" {
    label = "module.b"
    fontname = "sans-serif"
    "module.b.terraform_data.c" [label="terraform_data.c"];
    "module.b.terraform_data.d" [label="terraform_data.d"];
  }
  subgraph "cluster_module.b.module.n" {
    label = "module.b.module.n"
    fontname = "sans-serif"
    "module.b.module.n.terraform_data.e" [label="terraform_data.e"];
  }
  subgraph "cluster_module.m" {
    label = "module.m"
    fontname = "sans-serif"
    "module.m.terraform_data.c" [label="terraform_data.c"];
    "module.m.terraform_data.d" [label="terraform_data.d"];
  }
  subgraph "cluster_module.m.module.n" {
    label = "module.m.module.n"
    fontname = "sans-serif"
    "module.m.module.n.terraform_data.e" [label="terraform_data.e"];
  }
  "terraform_data.a" -> "data.terraform_remote_state.rs";
  "terraform_data.after" -> "module.b.module.n.terraform_data.e";
  "module.b.terraform_data.c" -> "terraform_data.z";
  "module.b.terraform_data.c" -> "module.m.module.n.terraform_data.e";
  "module.b.terraform_data.d" -> "module.b.terraform_data.c";
  "module.b.module.n.terraform_data.e" -> "module.b.terraform_data.d";
  "module.m.terraform_data.c" -> "terraform_data.a";
  "module.m.terraform_data.d" -> "module.m.terraform_data.c";
  "module.m.module.n.terraform_data.e" -> "module.m.terraform_data.d";
}
`

// TestE2EGraphModules: the resources-only graph puts each module's
// resources in a cluster, leaves out edges a longer path implies and
// orders edges by node, as terraform graph does (tools that draw or
// parse it, such as Rover or Blast Radius, rely on its shape); compared
// with terraform when installed.
func TestE2EGraphModules(t *testing.T) {
	t.Parallel()
	run := func(bin string) string {
		dir := t.TempDir()
		for name, src := range graphModulesConfig {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
				t.Fatal(err)
			}
			writeFile(t, filepath.Join(dir, name), src)
		}
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %s", bin, r.stderr)
		}
		r := runIn(t, dir, "", bin, "graph")
		if r.code != 0 {
			t.Fatalf("%s graph: %s", bin, r.stderr)
		}
		return r.stdout
	}
	got := run(strataBin)
	if diff := cmp.Diff(graphModulesWant, got); diff != "" {
		t.Errorf("graph (-want +got)\n%s", diff)
	}
	if tf, err := referenceTerraform(); err == nil {
		if diff := cmp.Diff(run(tf), got); diff != "" {
			t.Errorf("differs from terraform (-terraform +strata)\n%s", diff)
		}
	}
}

// TestE2EGraphCycle: a cycle fails graph with the cycle named, as plan
// does, unless -draw-cycles asks to see it; compared with terraform when
// installed.
func TestE2EGraphCycle(t *testing.T) {
	t.Parallel()
	run := func(bin string) []int {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  input = terraform_data.b.id\n}\nresource \"terraform_data\" \"b\" {\n  input = terraform_data.a.id\n}\n")
		if r := runIn(t, dir, "", bin, "init", "-no-color"); r.code != 0 {
			t.Fatalf("%s init: %s", bin, r.stderr)
		}
		plain := runIn(t, dir, "", bin, "graph", "-no-color")
		// Terraform names the cycle's nodes in any order.
		if plain.code == 1 && (!strings.Contains(plain.stderr, "Error: Cycle: ") || !strings.Contains(plain.stderr, "terraform_data.a") || !strings.Contains(plain.stderr, "terraform_data.b")) {
			t.Errorf("%s graph: no cycle error in\n%s", bin, plain.stderr)
		}
		drawn := runIn(t, dir, "", bin, "graph", "-draw-cycles")
		// Terraform draws one edge of the cycle, either one from run to
		// run; strata draws both.
		if !strings.Contains(drawn.stdout, `"terraform_data.a" -> "terraform_data.b";`) && !strings.Contains(drawn.stdout, `"terraform_data.b" -> "terraform_data.a";`) {
			t.Errorf("%s graph -draw-cycles: no edge of the cycle in\n%s", bin, drawn.stdout)
		}
		return []int{plain.code, drawn.code}
	}
	got := run(strataBin)
	if diff := cmp.Diff([]int{1, 0}, got); diff != "" {
		t.Errorf("exit codes (-want +got)\n%s", diff)
	}
	// strata draws every edge of the cycle.
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "main.tf"), "resource \"terraform_data\" \"a\" {\n  input = terraform_data.b.id\n}\nresource \"terraform_data\" \"b\" {\n  input = terraform_data.a.id\n}\n")
	if r := strata(t, dir, "graph", "-draw-cycles"); !strings.Contains(r.stdout, `"terraform_data.a" -> "terraform_data.b";`) || !strings.Contains(r.stdout, `"terraform_data.b" -> "terraform_data.a";`) {
		t.Errorf("graph -draw-cycles: not both edges of the cycle:\n%s", r.stdout)
	}
	if tf, err := referenceTerraform(); err == nil {
		if diff := cmp.Diff(run(tf), got); diff != "" {
			t.Errorf("exit codes differ from terraform (-terraform +strata)\n%s", diff)
		}
	}
}
