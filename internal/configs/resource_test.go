package configs

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/strata-dev/strata/internal/addrs"
)

type lifecycleSummary struct {
	CreateBeforeDestroy bool
	PreventDestroy      bool
	IgnoreChanges       []string
	IgnoreAllChanges    bool
	ReplaceTriggeredBy  []string // references in each expression
	Preconditions       []string
	Postconditions      []string
}

type resourceSummary struct {
	Addr          string
	Count         string // range of the expression, "" when unset
	ForEach       string
	DependsOn     []string
	Provider      string // ProviderRef.String()
	ProviderRange string
	ProviderLocal string // ProviderLocalName()
	Config        []string
	Managed       *lifecycleSummary
	DeclRange     string
	TypeRange     string
}

func summarizeResource(t *testing.T, r *Resource) resourceSummary {
	t.Helper()
	s := resourceSummary{
		Addr:          r.Addr().String(),
		DependsOn:     travStrings(r.DependsOn),
		ProviderLocal: r.ProviderLocalName(),
		DeclRange:     fmtRange(&r.DeclRange),
		TypeRange:     fmtRange(&r.TypeRange),
	}
	if r.Count != nil {
		s.Count = fmtRange(r.Count.Range().Ptr())
	}
	if r.ForEach != nil {
		s.ForEach = fmtRange(r.ForEach.Range().Ptr())
	}
	if r.ProviderRef != nil {
		s.Provider = r.ProviderRef.String()
		s.ProviderRange = fmtRange(&r.ProviderRef.NameRange)
	}
	// JustAttributes complains about any nested block, even those that
	// PartialContent consumed (lifecycle, provisioner); only the names
	// matter here.
	attrs, _ := r.Config.JustAttributes()
	s.Config = sortedKeys(attrs)
	if lc := r.Managed; lc != nil {
		ls := &lifecycleSummary{
			CreateBeforeDestroy: lc.CreateBeforeDestroy,
			PreventDestroy:      lc.PreventDestroy,
			IgnoreChanges:       travStrings(lc.IgnoreChanges),
			IgnoreAllChanges:    lc.IgnoreAllChanges,
		}
		for _, e := range lc.ReplaceTriggeredBy {
			ls.ReplaceTriggeredBy = append(ls.ReplaceTriggeredBy, travStrings(e.Variables())...)
		}
		for _, c := range lc.Preconditions {
			ls.Preconditions = append(ls.Preconditions, fmtRange(&c.DeclRange))
		}
		for _, c := range lc.Postconditions {
			ls.Postconditions = append(ls.Postconditions, fmtRange(&c.DeclRange))
		}
		s.Managed = ls
	}
	return s
}

func TestDecodeResource(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		src       string
		file      string
		want      []resourceSummary // sorted by address
		wantDiags []diag
	}{
		"managed": {
			src: `
resource "aws_instance" "web" {
  ami  = "ami-1"
  tags = {}
}
`,
			want: []resourceSummary{{
				Addr: "aws_instance.web", ProviderLocal: "aws", Config: []string{"ami", "tags"},
				Managed:   &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,24",
			}},
		},
		"data": {
			src: `
data "aws_ami" "ubuntu" {
  most_recent = true
}
`,
			want: []resourceSummary{{
				Addr: "data.aws_ami.ubuntu", ProviderLocal: "aws", Config: []string{"most_recent"},
				DeclRange: "main.tf:2,1-2,24", TypeRange: "main.tf:2,6-2,15",
			}},
		},
		"type without underscore": {
			src: `resource "thing" "a" {}`,
			want: []resourceSummary{{
				Addr: "thing.a", ProviderLocal: "thing", Config: []string{},
				Managed:   &lifecycleSummary{},
				DeclRange: "main.tf:1,1-1,21", TypeRange: "main.tf:1,10-1,17",
			}},
		},
		"count": {
			src: `
resource "terraform_data" "a" {
  count = 3
  input = count.index
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", Count: "main.tf:3,11-3,12", ProviderLocal: "terraform",
				Config: []string{"input"}, Managed: &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
		},
		"for_each": {
			src: `
resource "terraform_data" "a" {
  for_each = toset(["a", "b"])
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ForEach: "main.tf:3,14-3,31", ProviderLocal: "terraform",
				Config: []string{}, Managed: &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
		},
		"count and for_each": {
			src: `
resource "terraform_data" "a" {
  count    = 1
  for_each = {}
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", Count: "main.tf:3,14-3,15", ForEach: "main.tf:4,14-4,16",
				ProviderLocal: "terraform", Config: []string{}, Managed: &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
			wantDiags: []diag{
				errDiag(`Invalid combination of "count" and "for_each"`, "main.tf:4,3-4,11"),
			},
		},
		"count and for_each on data": {
			src: `
data "terraform_remote_state" "a" {
  count    = 1
  for_each = {}
}
`,
			want: []resourceSummary{{
				Addr: "data.terraform_remote_state.a", Count: "main.tf:3,14-3,15", ForEach: "main.tf:4,14-4,16",
				ProviderLocal: "terraform", Config: []string{},
				DeclRange: "main.tf:2,1-2,34", TypeRange: "main.tf:2,6-2,30",
			}},
			wantDiags: []diag{
				errDiag(`Invalid combination of "count" and "for_each"`, "main.tf:4,3-4,11"),
			},
		},
		"provider name": {
			src: `
resource "aws_instance" "a" {
  provider = google
}
`,
			want: []resourceSummary{{
				Addr: "aws_instance.a", Provider: "google", ProviderRange: "main.tf:3,14-3,20",
				ProviderLocal: "google", Config: []string{}, Managed: &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,28", TypeRange: "main.tf:2,10-2,24",
			}},
		},
		"provider alias": {
			src: `
data "aws_ami" "a" {
  provider = aws.west
}
`,
			want: []resourceSummary{{
				Addr: "data.aws_ami.a", Provider: "aws.west", ProviderRange: "main.tf:3,14-3,22",
				ProviderLocal: "aws", Config: []string{},
				DeclRange: "main.tf:2,1-2,19", TypeRange: "main.tf:2,6-2,15",
			}},
		},
		"quoted provider": {
			src: `
resource "aws_instance" "a" {
  provider = "aws.west"
}
`,
			want: []resourceSummary{{
				Addr: "aws_instance.a", Provider: "aws.west", ProviderRange: "main.tf:3,15-3,23",
				ProviderLocal: "aws", Config: []string{}, Managed: &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,28", TypeRange: "main.tf:2,10-2,24",
			}},
			wantDiags: []diag{
				warnDiag("Quoted references are deprecated", "main.tf:3,14-3,24"),
			},
		},
		"provider json": {
			file: "main.tf.json",
			src:  `{"resource": {"aws_instance": {"a": {"provider": "aws.west", "ami": "x"}}}}`,
			want: []resourceSummary{{
				Addr: "aws_instance.a", Provider: "aws.west", ProviderRange: "main.tf.json:1,50-1,58",
				ProviderLocal: "aws", Config: []string{"ami"}, Managed: &lifecycleSummary{},
				DeclRange: "main.tf.json:1,37-1,38", TypeRange: "main.tf.json:1,15-1,29",
			}},
		},
		"invalid provider references": {
			src: `
resource "terraform_data" "a" {
  provider = terraform.a.b
}
resource "terraform_data" "b" {
  provider = terraform["a"]
}
resource "terraform_data" "c" {
  provider = "${terraform}"
}
`,
			want: []resourceSummary{
				{
					Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{}, Managed: &lifecycleSummary{},
					DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
				},
				{
					Addr: "terraform_data.b", ProviderLocal: "terraform", Config: []string{}, Managed: &lifecycleSummary{},
					DeclRange: "main.tf:5,1-5,30", TypeRange: "main.tf:5,10-5,26",
				},
				{
					Addr: "terraform_data.c", ProviderLocal: "terraform", Config: []string{}, Managed: &lifecycleSummary{},
					DeclRange: "main.tf:8,1-8,30", TypeRange: "main.tf:8,10-8,26",
				},
			},
			wantDiags: []diag{
				errDiag("Invalid provider reference", "main.tf:3,14-3,27"),
				errDiag("Invalid provider reference", "main.tf:6,23-6,28"),
				errDiag("Invalid provider reference", "main.tf:9,14-9,28"),
			},
		},
		"depends_on": {
			src: `
resource "terraform_data" "a" {
  depends_on = [terraform_data.b, data.terraform_remote_state.c, terraform_data.d["k"]]
}
`,
			want: []resourceSummary{{
				Addr:          "terraform_data.a",
				DependsOn:     []string{"terraform_data.b", "data.terraform_remote_state.c", `terraform_data.d["k"]`},
				ProviderLocal: "terraform", Config: []string{}, Managed: &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
		},
		"quoted depends_on": {
			src: `
data "terraform_remote_state" "a" {
  depends_on = ["terraform_data.b"]
}
`,
			want: []resourceSummary{{
				Addr: "data.terraform_remote_state.a", DependsOn: []string{"terraform_data.b"},
				ProviderLocal: "terraform", Config: []string{},
				DeclRange: "main.tf:2,1-2,34", TypeRange: "main.tf:2,6-2,30",
			}},
			wantDiags: []diag{
				warnDiag("Quoted references are deprecated", "main.tf:3,17-3,35"),
			},
		},
		"lifecycle": {
			src: `
resource "terraform_data" "a" {
  lifecycle {
    create_before_destroy = true
    prevent_destroy       = true
    ignore_changes        = [input, triggers_replace["k"], tags[0].name]
    replace_triggered_by  = [terraform_data.b, terraform_data.c[0].id]

    precondition {
      condition     = var.ok
      error_message = "pre"
    }
    postcondition {
      condition     = self.id != ""
      error_message = "post 1"
    }
    postcondition {
      condition     = self.ok
      error_message = "post 2"
    }
  }
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed: &lifecycleSummary{
					CreateBeforeDestroy: true,
					PreventDestroy:      true,
					IgnoreChanges:       []string{"input", `triggers_replace["k"]`, "tags[0].name"},
					ReplaceTriggeredBy:  []string{"terraform_data.b", "terraform_data.c[0].id"},
					Preconditions:       []string{"main.tf:9,5-9,17"},
					Postconditions:      []string{"main.tf:13,5-13,18", "main.tf:17,5-17,18"},
				},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
		},
		"lifecycle json": {
			file: "main.tf.json",
			src: `{"resource": {"terraform_data": {"a": {"lifecycle": {
  "create_before_destroy": true,
  "ignore_changes": ["input", "triggers_replace[\"k\"]"],
  "replace_triggered_by": ["${terraform_data.b}"],
  "postcondition": [{"condition": "${self.id != \"\"}", "error_message": "x"}]
}}}}}`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed: &lifecycleSummary{
					CreateBeforeDestroy: true,
					IgnoreChanges:       []string{"input", `triggers_replace["k"]`},
					ReplaceTriggeredBy:  []string{"terraform_data.b"},
					Postconditions:      []string{"main.tf.json:5,20-5,21"},
				},
				DeclRange: "main.tf.json:1,39-1,40", TypeRange: "main.tf.json:1,15-1,31",
			}},
		},
		"ignore_changes all": {
			src: `
resource "terraform_data" "a" {
  lifecycle {
    ignore_changes = all
  }
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed:   &lifecycleSummary{IgnoreAllChanges: true},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
		},
		"ignore_changes all json": {
			file: "main.tf.json",
			src:  `{"resource": {"terraform_data": {"a": {"lifecycle": {"ignore_changes": "all"}}}}}`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed:   &lifecycleSummary{IgnoreAllChanges: true},
				DeclRange: "main.tf.json:1,39-1,40", TypeRange: "main.tf.json:1,15-1,31",
			}},
		},
		"ignore_changes quoted all": {
			src: `
resource "terraform_data" "a" {
  lifecycle {
    ignore_changes = "all"
  }
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed:   &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
			wantDiags: []diag{errDiag("Invalid expression", "main.tf:4,23-4,26")},
		},
		"ignore_changes quoted references": {
			src: `
resource "terraform_data" "a" {
  lifecycle {
    ignore_changes = ["input", "tags[\"a\"]"]
  }
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed:   &lifecycleSummary{IgnoreChanges: []string{"input", `tags["a"]`}},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
			wantDiags: []diag{
				warnDiag("Quoted references are deprecated", "main.tf:4,23-4,30"),
				warnDiag("Quoted references are deprecated", "main.tf:4,32-4,45"),
			},
		},
		"invalid ignore_changes": {
			src: `
resource "terraform_data" "a" {
  lifecycle {
    ignore_changes = [input, upper("x"), tags[var.k]]
  }
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed:   &lifecycleSummary{IgnoreChanges: []string{"input"}},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
			wantDiags: []diag{
				errDiag("Invalid expression", "main.tf:4,30-4,40"),
				errDiag("Invalid expression", "main.tf:4,42-4,53"),
			},
		},
		"ignore_changes not a list": {
			src: `
resource "terraform_data" "a" {
  lifecycle {
    ignore_changes = input
  }
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed:   &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
			wantDiags: []diag{errDiag("Invalid expression", "main.tf:4,22-4,27")},
		},
		"non-bool lifecycle flags": {
			src: `
resource "terraform_data" "a" {
  lifecycle {
    create_before_destroy = "sometimes"
    prevent_destroy       = var.protect
  }
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed:   &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
			wantDiags: []diag{
				errDiag("Unsuitable value type", "main.tf:4,30-4,39"),
				errDiag("Unsuitable value type", "main.tf:5,29-5,40"),
				errDiag("Variables not allowed", "main.tf:5,29-5,32"),
			},
		},
		"unknown lifecycle argument": {
			src: `
resource "terraform_data" "a" {
  lifecycle {
    ignore_change = [input]
  }
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed:   &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
			wantDiags: []diag{errDiag("Unsupported argument", "main.tf:4,5-4,18")},
		},
		"duplicate lifecycle": {
			src: `
resource "terraform_data" "a" {
  lifecycle {
    create_before_destroy = true
  }
  lifecycle {
    prevent_destroy = true
  }
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed:   &lifecycleSummary{CreateBeforeDestroy: true},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
			wantDiags: []diag{errDiag("Duplicate lifecycle block", "main.tf:6,3-6,12")},
		},
		"condition without condition": {
			src: `
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      error_message = "x"
    }
  }
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{},
				Managed:   &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
			wantDiags: []diag{errDiag("Missing required argument", "main.tf:4,18-4,18")},
		},
		"data lifecycle with managed-only arguments": {
			src: `
data "terraform_remote_state" "a" {
  lifecycle {
    create_before_destroy = true
    prevent_destroy       = true
    ignore_changes        = all
    replace_triggered_by  = []
  }
}
`,
			want: []resourceSummary{{
				Addr: "data.terraform_remote_state.a", ProviderLocal: "terraform", Config: []string{},
				DeclRange: "main.tf:2,1-2,34", TypeRange: "main.tf:2,6-2,30",
			}},
			wantDiags: []diag{
				errDiag("Invalid data resource lifecycle argument", "main.tf:4,5-4,26"),
				errDiag("Invalid data resource lifecycle argument", "main.tf:5,5-5,20"),
				errDiag("Invalid data resource lifecycle argument", "main.tf:6,5-6,19"),
				errDiag("Invalid data resource lifecycle argument", "main.tf:7,5-7,25"),
			},
		},
		"data lifecycle with conditions": {
			src: `
data "terraform_remote_state" "a" {
  lifecycle {
    precondition {
      condition     = var.ok
      error_message = "x"
    }
    postcondition {
      condition     = self.outputs != null
      error_message = "y"
    }
  }
}
`,
			want: []resourceSummary{{
				Addr: "data.terraform_remote_state.a", ProviderLocal: "terraform", Config: []string{},
				DeclRange: "main.tf:2,1-2,34", TypeRange: "main.tf:2,6-2,30",
			}},
		},
		"duplicate data lifecycle": {
			src: `
data "terraform_remote_state" "a" {
  lifecycle {}
  lifecycle {}
}
`,
			want: []resourceSummary{{
				Addr: "data.terraform_remote_state.a", ProviderLocal: "terraform", Config: []string{},
				DeclRange: "main.tf:2,1-2,34", TypeRange: "main.tf:2,6-2,30",
			}},
			wantDiags: []diag{errDiag("Duplicate lifecycle block", "main.tf:4,3-4,12")},
		},
		"provisioner and connection": {
			src: `
resource "terraform_data" "a" {
  connection {
    host = "x"
  }
  provisioner "local-exec" {
    command = "echo hi"
  }
}
data "terraform_remote_state" "b" {
  provisioner "local-exec" {}
}
`,
			want: []resourceSummary{
				{
					Addr: "data.terraform_remote_state.b", ProviderLocal: "terraform", Config: []string{},
					DeclRange: "main.tf:10,1-10,34", TypeRange: "main.tf:10,6-10,30",
				},
				{
					Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{}, Managed: &lifecycleSummary{},
					DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
				},
			},
			wantDiags: []diag{
				errDiag("Unsupported block type", "main.tf:11,3-11,14"),
			},
		},
		"reserved locals block": {
			src: `
resource "terraform_data" "a" {
  locals {}
}
`,
			want: []resourceSummary{{
				Addr: "terraform_data.a", ProviderLocal: "terraform", Config: []string{}, Managed: &lifecycleSummary{},
				DeclRange: "main.tf:2,1-2,30", TypeRange: "main.tf:2,10-2,26",
			}},
			wantDiags: []diag{errDiag("Reserved block type name in resource block", "main.tf:3,3-3,9")},
		},
		"invalid names": {
			src: `
resource "1type" "a" {}
resource "terraform_data" "a b" {}
data "1type" "a" {}
data "terraform_remote_state" "-x" {}
`,
			want: []resourceSummary{
				{
					Addr: "data.1type.a", ProviderLocal: "1type", Config: []string{},
					DeclRange: "main.tf:4,1-4,17", TypeRange: "main.tf:4,6-4,13",
				},
				{
					Addr: "data.terraform_remote_state.-x", ProviderLocal: "terraform", Config: []string{},
					DeclRange: "main.tf:5,1-5,35", TypeRange: "main.tf:5,6-5,30",
				},
				{
					Addr: "1type.a", ProviderLocal: "1type", Config: []string{}, Managed: &lifecycleSummary{},
					DeclRange: "main.tf:2,1-2,21", TypeRange: "main.tf:2,10-2,17",
				},
				{
					Addr: "terraform_data.a b", ProviderLocal: "terraform", Config: []string{}, Managed: &lifecycleSummary{},
					DeclRange: "main.tf:3,1-3,32", TypeRange: "main.tf:3,10-3,26",
				},
			},
			wantDiags: []diag{
				errDiag("Invalid resource type name", "main.tf:2,10-2,17"),
				errDiag("Invalid resource name", "main.tf:3,27-3,32"),
				errDiag("Invalid data source name", "main.tf:4,6-4,13"),
				errDiag("Invalid data resource name", "main.tf:5,31-5,35"),
			},
		},
		"missing labels": {
			src: `
resource "terraform_data" {}
data {}
`,
			wantDiags: []diag{
				errDiag("Missing name for resource", "main.tf:2,27-2,28"),
				errDiag("Missing type for data", "main.tf:3,6-3,7"),
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			file := tc.file
			if file == "" {
				file = "main.tf"
			}
			mod, diags := loadModuleSrc(t, map[string]string{file: tc.src})
			assertDiags(t, diags, tc.wantDiags)

			var got []resourceSummary
			for _, key := range sortedKeys(mod.DataResources) {
				r := mod.DataResources[key]
				if r.Mode != addrs.DataResourceMode || key != r.Addr().String() {
					t.Errorf("data resource %q has mode %c, address %s", key, r.Mode, r.Addr())
				}
				got = append(got, summarizeResource(t, r))
			}
			for _, key := range sortedKeys(mod.ManagedResources) {
				r := mod.ManagedResources[key]
				if r.Mode != addrs.ManagedResourceMode || key != r.Addr().String() {
					t.Errorf("managed resource %q has mode %c, address %s", key, r.Mode, r.Addr())
				}
				got = append(got, summarizeResource(t, r))
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("wrong resources (-want +got)\n%s", diff)
			}
		})
	}
}

func TestProviderRefString(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		ref  ProviderRef
		want string
	}{
		"name":  {ProviderRef{Name: "aws"}, "aws"},
		"alias": {ProviderRef{Name: "aws", Alias: "west"}, "aws.west"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if got := tc.ref.String(); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestConditionsMustRefer: as in Terraform, a condition that refers to
// nothing is an error: its result could never depend on anything.
func TestConditionsMustRefer(t *testing.T) {
	_, diags := loadModuleSrc(t, map[string]string{"main.tf": `
resource "terraform_data" "a" {
  lifecycle {
    precondition {
      condition     = true
      error_message = "x"
    }
    postcondition {
      condition     = self.output != null
      error_message = "y"
    }
  }
}
output "o" {
  value = 1
  precondition {
    condition     = 1 == 1
    error_message = "x"
  }
}
`})
	assertDiags(t, diags, []diag{
		errDiag("Invalid precondition expression", "main.tf:5,23-5,27"),
		errDiag("Invalid precondition expression", "main.tf:17,21-17,27"),
	})
}
