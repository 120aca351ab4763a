package configs

import "testing"

// TestNormalizeVersionConstraints: the forms Terraform 1.11 prints in "Finding
// ... versions matching" and records in the lock file for the same
// version arguments (observed with terraform init).
func TestNormalizeVersionConstraints(t *testing.T) {
	t.Parallel()
	tests := map[string]struct {
		in   []string
		want string
	}{
		"spacing and duplicates": {[]string{">=3.3.2", ">= 3.3.2"}, ">= 3.3.2"},
		"across modules":         {[]string{">=1.0.0, >= 1.0.0", "~>1.0"}, ">= 1.0.0, ~> 1.0"},
		"padded and sorted": {[]string{"~>1.0, >=0.5, !=1.0.5, <2.0.0, >=0.5.0, > 0.1"},
			"> 0.1.0, >= 0.5.0, ~> 1.0, != 1.0.5, < 2.0.0"},
		"exact versions":        {[]string{"1.1.0, ~> 1.1.0, =1.1.0, >= 1.0, ~> 1"}, ">= 1.0.0, ~> 1.0, 1.1.0, ~> 1.1.0"},
		"pre-releases":          {[]string{">= 1.0.0-beta, <= 3, ~> 1.1, >= 1.0.0, >= 1.0"}, ">= 1.0.0-beta, >= 1.0.0, ~> 1.1, <= 3.0.0"},
		"pessimistic precision": {[]string{"~> 1.0, ~> 1.0.0"}, "~> 1.0.0, ~> 1.0"},
		"operators on one version": {[]string{"!= 1.0.0, < 1.0.0, <= 1.0.0, 1.0.0, > 1.0.0, >= 1.0.0, ~> 1.0.0"},
			"> 1.0.0, >= 1.0.0, 1.0.0, ~> 1.0.0, <= 1.0.0, < 1.0.0, != 1.0.0"},
		"none": {nil, ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := NormalizeVersionConstraints(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Errorf("NormalizeVersionConstraints(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
