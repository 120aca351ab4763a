package configs

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

type provisionerSummary struct {
	Type      string
	When      string
	OnFailure string
	Args      []string
	// Connection lists the connection arguments as NAME@LINE, the line
	// saying which block each comes from.
	Connection []string `cmp:",omitempty"`
	DeclRange  string
}

func summarizeProvisioners(provs []*Provisioner) []provisionerSummary {
	var out []provisionerSummary
	for _, p := range provs {
		attrs, _ := p.Config.JustAttributes()
		var conn []string
		if p.Connection != nil {
			cattrs, _ := p.Connection.JustAttributes()
			for _, name := range sortedKeys(cattrs) {
				conn = append(conn, fmt.Sprintf("%s@%d", name, cattrs[name].Expr.Range().Start.Line))
			}
		}
		out = append(out, provisionerSummary{
			Type: p.Type, When: p.When.String(), OnFailure: p.OnFailure.String(),
			Args: sortedKeys(attrs), Connection: conn, DeclRange: fmtRange(&p.DeclRange),
		})
	}
	return out
}

func TestDecodeProvisioners(t *testing.T) {
	tests := map[string]struct {
		src       string
		want      []provisionerSummary
		wantDiags []diag
	}{
		"local-exec with every argument": {
			src: `
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command     = "echo ${self.id}"
    working_dir = "/tmp"
    interpreter = ["/bin/bash", "-c"]
    environment = { A = "1" }
    quiet       = true
  }
  provisioner "local-exec" {
    when       = destroy
    on_failure = continue
    command    = "echo ${self.id} ${count.index} ${each.key} ${path.module} ${terraform.workspace}"
  }
  provisioner "local-exec" {
    when       = create
    on_failure = fail
    command    = "true"
  }
}
`,
			want: []provisionerSummary{
				{Type: "local-exec", When: "create", OnFailure: "fail", Args: []string{"command", "environment", "interpreter", "quiet", "working_dir"}, DeclRange: "main.tf:3,3-3,27"},
				{Type: "local-exec", When: "destroy", OnFailure: "continue", Args: []string{"command"}, DeclRange: "main.tf:10,3-10,27"},
				{Type: "local-exec", When: "create", OnFailure: "fail", Args: []string{"command"}, DeclRange: "main.tf:15,3-15,27"},
			},
		},
		"escaping block": {
			src: `
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "true"
    _ {
      when = "x"
    }
  }
}
`,
			want: []provisionerSummary{{Type: "local-exec", When: "create", OnFailure: "fail", Args: []string{"command", "when"}, DeclRange: "main.tf:3,3-3,27"}},
		},
		"unsupported types": {
			src: `
resource "terraform_data" "a" {
  provisioner "puppet" {}
  provisioner "chef" {}
  provisioner "local-exec" {
    command = "true"
    lifecycle {}
  }
}
`,
			want: []provisionerSummary{{Type: "local-exec", When: "create", OnFailure: "fail", Args: []string{"command"}, DeclRange: "main.tf:5,3-5,27"}},
			wantDiags: []diag{
				errDiag(`The "puppet" provisioner has been removed`, "main.tf:3,15-3,23"),
				errDiag(`The "chef" provisioner has been removed`, "main.tf:4,15-4,21"),
				errDiag("Reserved block type name in provisioner block", "main.tf:7,5-7,14"),
			},
		},
		"connection blocks": {
			src: `
resource "terraform_data" "a" {
  provisioner "remote-exec" {
    inline = ["x"]
  }
  connection {
    host = "x"
    user = "u"
  }
  provisioner "file" {
    content     = "x"
    destination = "/tmp/x"
    connection {
      user     = "v"
      password = "p"
    }
    connection {}
  }
  connection {}
}
`,
			want: []provisionerSummary{
				{Type: "remote-exec", When: "create", OnFailure: "fail", Args: []string{"inline"}, Connection: []string{"host@7", "user@8"}, DeclRange: "main.tf:3,3-3,28"},
				{Type: "file", When: "create", OnFailure: "fail", Args: []string{"content", "destination"}, Connection: []string{"host@7", "password@15", "user@14"}, DeclRange: "main.tf:10,3-10,21"},
			},
			wantDiags: []diag{
				errDiag("Duplicate connection block", "main.tf:17,5-17,15"),
				errDiag("Duplicate connection block", "main.tf:19,3-19,13"),
			},
		},
		"connection of a provisioner alone": {
			src: `
resource "terraform_data" "a" {
  provisioner "remote-exec" {
    inline = ["x"]
    connection {
      host = "x"
    }
  }
  provisioner "local-exec" {
    command = "true"
  }
}
`,
			want: []provisionerSummary{
				{Type: "remote-exec", When: "create", OnFailure: "fail", Args: []string{"inline"}, Connection: []string{"host@6"}, DeclRange: "main.tf:3,3-3,28"},
				{Type: "local-exec", When: "create", OnFailure: "fail", Args: []string{"command"}, DeclRange: "main.tf:9,3-9,27"},
			},
		},
		"destroy-time connection references": {
			src: `
variable "v" {}
resource "terraform_data" "a" {
  count = 1
  connection {
    host = self.input
    user = var.v
  }
  provisioner "remote-exec" {
    when   = destroy
    inline = ["x"]
    connection {
      password = terraform_data.b.id
      port     = count.index
    }
  }
}
resource "terraform_data" "b" {}
`,
			want: []provisionerSummary{
				{Type: "remote-exec", When: "destroy", OnFailure: "fail", Args: []string{"inline"}, Connection: []string{"host@6", "password@13", "port@14", "user@7"}, DeclRange: "main.tf:9,3-9,28"},
			},
			wantDiags: []diag{
				errDiag("Invalid reference from destroy provisioner", "main.tf:7,12-7,17"),
				errDiag("Invalid reference from destroy provisioner", "main.tf:13,18-13,37"),
			},
		},
		"bad keywords": {
			src: `
resource "terraform_data" "a" {
  provisioner "local-exec" {
    when       = sometimes
    on_failure = "never"
    command    = "true"
  }
}
`,
			want: []provisionerSummary{{Type: "local-exec", When: "create", OnFailure: "fail", Args: []string{"command"}, DeclRange: "main.tf:3,3-3,27"}},
			wantDiags: []diag{
				errDiag(`Invalid "when" keyword`, "main.tf:4,18-4,27"),
				errDiag(`Invalid "on_failure" keyword`, "main.tf:5,18-5,25"),
				warnDiag("Quoted keywords are deprecated", "main.tf:5,18-5,25"),
			},
		},
		"quoted keywords": {
			src: `
resource "terraform_data" "a" {
  provisioner "local-exec" {
    when       = "destroy"
    on_failure = "continue"
    command    = "true"
  }
}
`,
			want: []provisionerSummary{{Type: "local-exec", When: "destroy", OnFailure: "continue", Args: []string{"command"}, DeclRange: "main.tf:3,3-3,27"}},
			wantDiags: []diag{
				warnDiag("Quoted keywords are deprecated", "main.tf:4,18-4,27"),
				warnDiag("Quoted keywords are deprecated", "main.tf:5,18-5,28"),
			},
		},
		"destroy-time references": {
			src: `
variable "v" {}
resource "terraform_data" "a" {
  for_each = {}
  provisioner "local-exec" {
    when        = destroy
    command     = "echo ${var.v} ${each.value} ${each.key}"
    environment = { X = terraform_data.b.id }
  }
}
resource "terraform_data" "b" {}
`,
			want: []provisionerSummary{{Type: "local-exec", When: "destroy", OnFailure: "fail", Args: []string{"command", "environment"}, DeclRange: "main.tf:5,3-5,27"}},
			wantDiags: []diag{
				errDiag("Invalid reference from destroy provisioner", "main.tf:7,19-7,60"),
				errDiag("Invalid reference from destroy provisioner", "main.tf:7,19-7,60"),
				errDiag("Invalid reference from destroy provisioner", "main.tf:8,19-8,46"),
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			mod, diags := loadMainTF(t, tc.src)
			assertDiags(t, diags, tc.wantDiags)
			r := mod.ManagedResources["terraform_data.a"]
			if r == nil {
				t.Fatalf("terraform_data.a not decoded")
			}
			if diff := cmp.Diff(tc.want, summarizeProvisioners(r.Managed.Provisioners)); diff != "" {
				t.Errorf("wrong provisioners (-want +got)\n%s", diff)
			}
		})
	}
}

func TestDecodeRemovedProvisioners(t *testing.T) {
	mod, diags := loadMainTF(t, `
removed {
  from = terraform_data.a
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${self.id} ${count.index}"
  }
  provisioner "local-exec" {
    command = "echo created"
  }
  connection {}
  connection {}
}
removed {
  from = module.m
  provisioner "local-exec" {
    when    = destroy
    command = "true"
  }
}
removed {
  from = terraform_data.b
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${terraform_data.c.id}"
  }
}
`)
	assertDiags(t, diags, []diag{
		errDiag("Invalid provisioner block", "main.tf:8,3-8,27"),
		errDiag("Duplicate connection block", "main.tf:12,3-12,13"),
		errDiag("Invalid provisioner block", "main.tf:16,3-16,27"),
		errDiag("Invalid reference from destroy provisioner", "main.tf:25,15-25,44"),
	})
	if len(mod.Removed) != 3 {
		t.Fatalf("%d removed blocks decoded, want 3", len(mod.Removed))
	}
	want := []provisionerSummary{{Type: "local-exec", When: "destroy", OnFailure: "fail", Args: []string{"command"}, DeclRange: "main.tf:4,3-4,27"}}
	if diff := cmp.Diff(want, summarizeProvisioners(mod.Removed[0].Provisioners)); diff != "" {
		t.Errorf("wrong provisioners (-want +got)\n%s", diff)
	}
}
