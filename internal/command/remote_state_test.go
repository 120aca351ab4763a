package command

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strata-dev/strata/internal/states/statemgr/pgtest"
)

// TestE2ERemoteStatePGAndHTTP: terraform_remote_state reads the outputs
// of states kept in pg (any workspace) and behind an http server, with
// the config arguments of the backend blocks; a missing state is an
// error, and reading creates nothing. Terraform, when installed, reads
// the same values with the same configuration.
func TestE2ERemoteStatePGAndHTTP(t *testing.T) {
	t.Parallel()
	conn := pgtest.ConnString(t)
	srv := newHTTPStateServer(t, "ci", "s3cret")
	empty := newHTTPStateServer(t, "", "")

	// The producers: one in pg (two workspaces), one over http.
	pgProducer := t.TempDir()
	writeFile(t, filepath.Join(pgProducer, "main.tf"), fmt.Sprintf(`terraform {
  backend "pg" {
    conn_str    = %q
    schema_name = "producer"
  }
}
output "name" {
  value = "pg-${terraform.workspace}"
}
output "list" {
  value = [1, 2]
}
`, conn))
	mustStrata(t, pgProducer, 0, "init", "-no-color")
	mustStrata(t, pgProducer, 0, "apply", "-auto-approve", "-no-color")
	mustStrata(t, pgProducer, 0, "workspace", "new", "-no-color", "w2")
	mustStrata(t, pgProducer, 0, "apply", "-auto-approve", "-no-color")
	httpProducer := t.TempDir()
	writeFile(t, filepath.Join(httpProducer, "main.tf"), httpBackendConfig(srv.url, "output \"name\" {\n  value = \"over-http\"\n}\n"))
	if r := runEnv(t, httpProducer, []string{"TF_HTTP_USERNAME=ci", "TF_HTTP_PASSWORD=s3cret"}, strataBin, "init", "-no-color"); r.code != 0 {
		t.Fatalf("http producer init: %s%s", r.stdout, r.stderr)
	}
	if r := runEnv(t, httpProducer, []string{"TF_HTTP_USERNAME=ci", "TF_HTTP_PASSWORD=s3cret"}, strataBin, "apply", "-auto-approve", "-no-color"); r.code != 0 {
		t.Fatalf("http producer: %s%s", r.stdout, r.stderr)
	}

	consumer := t.TempDir()
	writeFile(t, filepath.Join(consumer, "main.tf"), fmt.Sprintf(`data "terraform_remote_state" "pg" {
  backend = "pg"
  config = {
    conn_str    = %[1]q
    schema_name = "producer"
  }
}
data "terraform_remote_state" "pg_w2" {
  backend   = "pg"
  workspace = "w2"
  config = {
    conn_str    = %[1]q
    schema_name = "producer"
  }
}
data "terraform_remote_state" "http" {
  backend = "http"
  config = {
    address  = %[2]q
    username = "ci"
    password = "s3cret"
  }
}
output "values" {
  value = [
    data.terraform_remote_state.pg.outputs.name,
    data.terraform_remote_state.pg.outputs.list[1],
    data.terraform_remote_state.pg_w2.outputs.name,
    data.terraform_remote_state.http.outputs.name,
  ]
}
`, conn, srv.url))
	mustStrata(t, consumer, 0, "apply", "-auto-approve", "-no-color")
	want := `["pg-default",2,"pg-w2","over-http"]`
	if r := mustStrata(t, consumer, 0, "output", "-json", "values"); flat(r.stdout) != want {
		t.Errorf("values = %s, want %s", r.stdout, want)
	}
	if tf, err := referenceTerraform(); err == nil {
		tfDir := t.TempDir()
		writeFile(t, filepath.Join(tfDir, "main.tf"), string(readFile(t, filepath.Join(consumer, "main.tf"))))
		for _, args := range [][]string{{"init"}, {"apply", "-auto-approve"}} {
			if r := runIn(t, tfDir, "", tf, append(args, "-no-color", "-input=false")...); r.code != 0 {
				t.Fatalf("terraform %s: %s%s", args[0], r.stdout, r.stderr)
			}
		}
		if r := runIn(t, tfDir, "", tf, "output", "-json", "values"); flat(r.stdout) != want {
			t.Errorf("terraform reads values = %s, want %s", r.stdout, want)
		}
	}

	// Missing states, and bad configuration.
	tests := map[string]struct {
		block string
		want  string
	}{
		"pg workspace that does not exist": {
			block: fmt.Sprintf("backend = \"pg\"\n  workspace = \"nope\"\n  config = {\n    conn_str = %q\n    schema_name = \"producer\"\n  }", conn),
			want:  "Error: Unable to find remote state",
		},
		"pg schema with no state": {
			block: fmt.Sprintf("backend = \"pg\"\n  config = {\n    conn_str = %q\n    schema_name = \"empty\"\n  }", conn),
			want:  "Error: Unable to find remote state",
		},
		"http address with no state": {
			block: fmt.Sprintf("backend = \"http\"\n  config = {\n    address = %q\n  }", empty.url),
			want:  "Error: Unable to find remote state",
		},
		"unknown argument": {
			block: "backend = \"pg\"\n  config = {\n    bucket = \"b\"\n  }",
			want:  `The given configuration is not valid for backend "pg": unexpected attribute "bucket".`,
		},
		"unsupported backend": {
			block: "backend = \"gcs\"",
			want:  "Unsupported backend for terraform_remote_state",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "main.tf"), "data \"terraform_remote_state\" \"x\" {\n  "+tc.block+"\n}\n")
			r := mustStrata(t, dir, 1, "plan", "-no-color")
			if !strings.Contains(flat(r.stderr), tc.want) {
				t.Errorf("plan: want %q in\n%s", tc.want, r.stderr)
			}
		})
	}
	if _, ok := readPGState(t, conn, "producer", "nope"); ok {
		t.Error("reading a missing workspace created it")
	}
}

// TestE2ERemoteStateLocalWorkspace: a named workspace of a local backend
// with its own path is read from workspace_dir/NAME/terraform.tfstate,
// whatever path's file name, where the producer wrote it, as Terraform
// reads it.
func TestE2ERemoteStateLocalWorkspace(t *testing.T) {
	t.Parallel()
	producer := t.TempDir()
	writeFile(t, filepath.Join(producer, "main.tf"), `terraform {
  backend "local" {
    path = "custom.tfstate"
  }
}
output "ws" {
  value = terraform.workspace
}
`)
	mustStrata(t, producer, 0, "init", "-no-color")
	mustStrata(t, producer, 0, "workspace", "new", "-no-color", "x")
	mustStrata(t, producer, 0, "apply", "-auto-approve", "-no-color")
	if _, err := os.Stat(filepath.Join(producer, "terraform.tfstate.d", "x", "terraform.tfstate")); err != nil {
		t.Fatalf("the producer's state is not where Terraform keeps it: %v", err)
	}
	consumer := t.TempDir()
	writeFile(t, filepath.Join(consumer, "main.tf"), fmt.Sprintf(`data "terraform_remote_state" "x" {
  backend   = "local"
  workspace = "x"
  config = {
    path          = %q
    workspace_dir = %q
  }
}
output "read" {
  value = data.terraform_remote_state.x.outputs.ws
}
`, filepath.Join(producer, "custom.tfstate"), filepath.Join(producer, "terraform.tfstate.d")))
	mustStrata(t, consumer, 0, "apply", "-auto-approve", "-no-color")
	if r := mustStrata(t, consumer, 0, "output", "-raw", "read"); r.stdout != "x" {
		t.Errorf("read = %q, want x", r.stdout)
	}
	if tf, err := referenceTerraform(); err == nil {
		tfDir := t.TempDir()
		writeFile(t, filepath.Join(tfDir, "main.tf"), string(readFile(t, filepath.Join(consumer, "main.tf"))))
		for _, args := range [][]string{{"init"}, {"apply", "-auto-approve"}} {
			if r := runIn(t, tfDir, "", tf, append(args, "-no-color", "-input=false")...); r.code != 0 {
				t.Fatalf("terraform %s: %s%s", args[0], r.stdout, r.stderr)
			}
		}
		if r := runIn(t, tfDir, "", tf, "output", "-raw", "read"); r.stdout != "x" {
			t.Errorf("terraform reads %q, want x", r.stdout)
		}
	}
}
