package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func TestNumberFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		"abs":             {Expr: `abs(-12.4)`, Want: cty.MustParseNumberVal("12.4")},
		"ceil":            {Expr: `ceil(4.1)`, Want: cty.NumberIntVal(5)},
		"floor":           {Expr: `floor(-4.1)`, Want: cty.NumberIntVal(-5)},
		"log":             {Expr: `log(16, 2)`, Want: cty.NumberIntVal(4)},
		"max":             {Expr: `max(12, 54, 3)`, Want: cty.NumberIntVal(54)},
		"min expanded":    {Expr: `min([12, 54, 3]...)`, Want: cty.NumberIntVal(3)},
		"parseint hex":    {Expr: `parseint("FF", 16)`, Want: cty.NumberIntVal(255)},
		"parseint signed": {Expr: `parseint("-12", 10)`, Want: cty.NumberIntVal(-12)},
		"pow":             {Expr: `pow(3, 2)`, Want: cty.NumberIntVal(9)},
		"signum":          {Expr: `signum(-13)`, Want: cty.NumberIntVal(-1)},
		"sum":             {Expr: `sum([10, 13, 6, 4.5])`, Want: cty.MustParseNumberVal("33.5")},
		"sum set":         {Expr: `sum(toset([1,2]))`, Want: cty.NumberIntVal(3)},
		"sum strings":     {Expr: `sum(["1", 2])`, Want: cty.NumberIntVal(3)},
		"sum unknown":     {Expr: `sum([1, unknown_num])`, Want: cty.UnknownVal(cty.Number)},
		"sum empty":       {Expr: `sum([])`, WantErr: `cannot sum an empty list`},
		"sum null":        {Expr: `sum([null])`, WantErr: `argument must be list, set, or tuple of number values`},
		"sum not numbers": {Expr: `sum(["a"])`, WantErr: `argument must be list, set, or tuple of number values`},
		"sum scalar":      {Expr: `sum("x")`, WantErr: `cannot sum noniterable`},
		"sum object":      {Expr: `sum({a=1})`, WantErr: `argument must be list, set, or tuple. Received object`},
	})
}
