package funcs

import (
	"testing"

	"github.com/zclconf/go-cty/cty"
)

func strList(ss ...string) cty.Value {
	if len(ss) == 0 {
		return cty.ListValEmpty(cty.String)
	}
	vals := make([]cty.Value, len(ss))
	for i, s := range ss {
		vals[i] = cty.StringVal(s)
	}
	return cty.ListVal(vals)
}

func strTuple(ss ...string) cty.Value {
	vals := make([]cty.Value, len(ss))
	for i, s := range ss {
		vals[i] = cty.StringVal(s)
	}
	return cty.TupleVal(vals)
}

func strSet(ss ...string) cty.Value {
	if len(ss) == 0 {
		return cty.SetValEmpty(cty.String)
	}
	vals := make([]cty.Value, len(ss))
	for i, s := range ss {
		vals[i] = cty.StringVal(s)
	}
	return cty.SetVal(vals)
}

func numList(ns ...int64) cty.Value {
	vals := make([]cty.Value, len(ns))
	for i, n := range ns {
		vals[i] = cty.NumberIntVal(n)
	}
	return cty.ListVal(vals)
}

func TestCollectionFunctions(t *testing.T) {
	fns := Functions(testBaseDir, false)
	runExprTests(t, fns, map[string]exprTest{
		// alltrue / anytrue
		"alltrue empty":          {Expr: `alltrue([])`, Want: cty.True},
		"alltrue strings":        {Expr: `alltrue(["true", true])`, Want: cty.True},
		"alltrue null":           {Expr: `alltrue([true, null])`, Want: cty.False},
		"alltrue false":          {Expr: `alltrue([true, false])`, Want: cty.False},
		"alltrue unknown":        {Expr: `alltrue([true, unknown_str == "x"])`, Want: cty.UnknownVal(cty.Bool)},
		"alltrue not bool":       {Expr: `alltrue(["x"])`, WantErr: `a bool is required`},
		"anytrue empty":          {Expr: `anytrue([])`, Want: cty.False},
		"anytrue null":           {Expr: `anytrue([false, null])`, Want: cty.False},
		"anytrue one":            {Expr: `anytrue([false, "true"])`, Want: cty.True},
		"anytrue unknown":        {Expr: `anytrue([false, unknown_str == "x"])`, Want: cty.UnknownVal(cty.Bool)},
		"anytrue unknown but 1":  {Expr: `anytrue([unknown_str == "x", true])`, Want: cty.True},
		"chunklist":              {Expr: `chunklist(["a","b","c","d","e"], 2)`, Want: cty.ListVal([]cty.Value{strList("a", "b"), strList("c", "d"), strList("e")})},
		"coalescelist":           {Expr: `coalescelist([], ["x"])`, Want: strTuple("x")},
		"compact":                {Expr: `compact(["a", "", "b", null])`, Want: strList("a", "b")},
		"concat":                 {Expr: `concat(["a"], ["b", "c"])`, Want: strTuple("a", "b", "c")},
		"contains true":          {Expr: `contains(["a","b"], "b")`, Want: cty.True},
		"contains false":         {Expr: `contains(["a","b"], "z")`, Want: cty.False},
		"contains null":          {Expr: `contains(["a"], null)`, WantErr: `Invalid value for "value" parameter: argument must not be null`},
		"element negative list":  {Expr: `element(tolist(["a", "b", "c"]), -1)`, Want: cty.StringVal("c")},
		"distinct":               {Expr: `distinct(["a","b","a","c"])`, Want: strList("a", "b", "c")},
		"keys":                   {Expr: `keys({b=1, a=2})`, Want: strTuple("a", "b")},
		"values":                 {Expr: `values({b=1, a=2})`, Want: cty.TupleVal([]cty.Value{cty.NumberIntVal(2), cty.NumberIntVal(1)})},
		"range one arg":          {Expr: `range(3)`, Want: numList(0, 1, 2)},
		"range step":             {Expr: `range(1, 10, 3)`, Want: numList(1, 4, 7)},
		"range descending":       {Expr: `range(5, 1)`, Want: numList(5, 4, 3, 2)},
		"reverse":                {Expr: `reverse([1,2,3])`, Want: cty.TupleVal([]cty.Value{cty.NumberIntVal(3), cty.NumberIntVal(2), cty.NumberIntVal(1)})},
		"setintersection":        {Expr: `setintersection(["a","b"], ["b","c"])`, Want: strSet("b")},
		"setsubtract":            {Expr: `setsubtract(["a","b","c"], ["a"])`, Want: strSet("b", "c")},
		"setunion":               {Expr: `setunion(["a"], ["b"])`, Want: strSet("a", "b")},
		"setproduct":             {Expr: `setproduct(["a","b"], ["x","y"])`, Want: cty.ListVal([]cty.Value{strTuple("a", "x"), strTuple("a", "y"), strTuple("b", "x"), strTuple("b", "y")})},
		"slice":                  {Expr: `slice(["a","b","c","d"], 1, 3)`, Want: strTuple("b", "c")},
		"sort strings":           {Expr: `sort(["e","d","a","x"])`, Want: strList("a", "d", "e", "x")},
		"sort numbers lexically": {Expr: `sort([3, 10, 1])`, Want: strList("1", "10", "3")},
		"zipmap":                 {Expr: `zipmap(["a","b"], [1,2])`, Want: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1), "b": cty.NumberIntVal(2)})},

		// coalesce skips nulls and empty strings
		"coalesce empty string":  {Expr: `coalesce("", "a")`, Want: cty.StringVal("a")},
		"coalesce null":          {Expr: `coalesce(null, "", "b")`, Want: cty.StringVal("b")},
		"coalesce unify":         {Expr: `coalesce(1, "a")`, Want: cty.StringVal("1")},
		"coalesce numbers":       {Expr: `coalesce(null, 2, 3)`, Want: cty.NumberIntVal(2)},
		"coalesce none":          {Expr: `coalesce("", null)`, WantErr: `no non-null, non-empty-string arguments`},
		"coalesce mixed types":   {Expr: `coalesce([1], "x")`, WantErr: `all arguments must have the same type`},
		"coalesce unknown first": {Expr: `coalesce(unknown_str, "x")`, Want: cty.UnknownVal(cty.String)},

		// element wraps around, including for negative indices
		"element":           {Expr: `element(["a","b","c"], 1)`, Want: cty.StringVal("b")},
		"element wrap":      {Expr: `element(["a","b","c"], 3)`, Want: cty.StringVal("a")},
		"element wrap far":  {Expr: `element(["a","b","c"], 7)`, Want: cty.StringVal("b")},
		"element negative":  {Expr: `element(["a","b","c"], -1)`, Want: cty.StringVal("c")},
		"element negative2": {Expr: `element(["a","b","c"], -4)`, Want: cty.StringVal("c")},
		"element empty":     {Expr: `element([], 0)`, WantErr: `cannot use element function with an empty list`},
		"element fraction":  {Expr: `element(["a","b","c"], 1.5)`, WantErr: `invalid index: value must be a whole number`},

		// flatten
		"flatten":          {Expr: `flatten([["a", "b"], [], ["c"]])`, Want: strTuple("a", "b", "c")},
		"flatten nested":   {Expr: `flatten([[["a", "b"], []], ["c"]])`, Want: strTuple("a", "b", "c")},
		"flatten mixed":    {Expr: `flatten([1, [2, [3]], null])`, Want: cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2), cty.NumberIntVal(3), cty.NullVal(cty.DynamicPseudoType)})},
		"flatten empty":    {Expr: `flatten([])`, Want: cty.EmptyTupleVal},
		"flatten deep":     {Expr: `flatten([[["a"]], [[["b"]]]])`, Want: strTuple("a", "b")},
		"flatten lists":    {Expr: `flatten([tolist(["a"]), tolist(["b", "c"])])`, Want: strTuple("a", "b", "c")},
		"flatten unknown":  {Expr: `flatten([["a"], unknown_list])`, Want: cty.DynamicVal},
		"index":            {Expr: `index(["a","b","c"], "b")`, Want: cty.NumberIntVal(1)},
		"index first":      {Expr: `index([1,"1"], 1)`, Want: cty.NumberIntVal(0)},
		"index not found":  {Expr: `index(["a"], "z")`, WantErr: `item not found`},
		"index not a list": {Expr: `index({a=1}, 1)`, WantErr: `argument must be a list or tuple`},
		"index empty":      {Expr: `index([], 1)`, WantErr: `cannot search an empty list`},

		// length works on strings and structural types too
		"length list":      {Expr: `length(["a", "b"])`, Want: cty.NumberIntVal(2)},
		"length string":    {Expr: `length("héllo")`, Want: cty.NumberIntVal(5)},
		"length graphemes": {Expr: `length("👍🏽x")`, Want: cty.NumberIntVal(2)},
		"length object":    {Expr: `length({a=1,b=2})`, Want: cty.NumberIntVal(2)},
		"length map":       {Expr: `length(tomap({a=1}))`, Want: cty.NumberIntVal(1)},
		"length set":       {Expr: `length(toset(["a", "a", "b"]))`, Want: cty.NumberIntVal(2)},
		"length empty":     {Expr: `length([])`, Want: cty.NumberIntVal(0)},
		"length sensitive": {Expr: `length(secret_list)`, Want: cty.NumberIntVal(2).Mark(SensitiveMark)},
		"length unknown":   {Expr: `length(unknown_list)`, Want: cty.UnknownVal(cty.Number)},
		"length number":    {Expr: `length(1)`, WantErr: `argument must be a string, a collection type, or a structural type`},
		"length null":      {Expr: `length(null)`, WantErr: `argument must not be null`},

		// lookup
		"lookup object hit":     {Expr: `lookup({a="ay", b="bee"}, "a", "what?")`, Want: cty.StringVal("ay")},
		"lookup object default": {Expr: `lookup({a="ay", b="bee"}, "c", "what?")`, Want: cty.StringVal("what?")},
		"lookup no default":     {Expr: `lookup(tomap({a="x"}), "a")`, Want: cty.StringVal("x")},
		"lookup map default":    {Expr: `lookup(tomap({a="x"}), "b", "y")`, Want: cty.StringVal("y")},
		"lookup map miss":       {Expr: `lookup(tomap({a="x"}), "b")`, WantErr: `lookup failed to find key "b"`},
		"lookup object miss":    {Expr: `lookup({a=1}, "b")`, WantErr: `the given object has no attribute "b"`},
		"lookup mixed object":   {Expr: `lookup({a=1,b="x"}, "b", 3)`, Want: cty.StringVal("x")},
		"lookup too many args":  {Expr: `lookup({a=1}, "a", "x", 1)`, WantErr: `lookup() takes two or three arguments, got 4`},
		"lookup sensitive map":  {Expr: `lookup(sensitive({a="x"}), "a", "")`, Want: cty.StringVal("x").Mark(SensitiveMark)},
		"lookup null default":   {Expr: `lookup({a=1}, "b", null)`, Want: cty.NullVal(cty.DynamicPseudoType)},
		"lookup map converts":   {Expr: `lookup(tomap({a="x"}), "b", 1)`, Want: cty.StringVal("1")},
		"lookup bad default":    {Expr: `lookup(tomap({a=1}), "a", "z")`, WantErr: `Invalid value for "default" parameter: the default value must have the same type as the map elements`},
		"lookup not a map":      {Expr: `lookup("x", "a", 1)`, WantErr: `Invalid value for "inputMap" parameter: lookup() requires a map as the first argument`},
		"lookup unknown key":    {Expr: `lookup({a="x"}, unknown_str, "y")`, Want: cty.DynamicVal},

		// matchkeys
		"matchkeys":          {Expr: `matchkeys(["i-123", "i-abc", "i-def"], ["us-west", "us-east", "us-east"], ["us-east"])`, Want: strList("i-abc", "i-def")},
		"matchkeys none":     {Expr: `matchkeys([1,2], ["a","b"], [])`, Want: cty.ListValEmpty(cty.Number)},
		"matchkeys set":      {Expr: `matchkeys(toset(["a","b"]), ["x","y"], ["y"])`, Want: strList("b")},
		"matchkeys unify":    {Expr: `matchkeys(["x","y"], [1, 2], ["1"])`, Want: strList("x")},
		"matchkeys types":    {Expr: `matchkeys(["x"], [[1]], ["1"])`, WantErr: `keys and searchset must be of the same type`},
		"matchkeys mismatch": {Expr: `matchkeys(["a"], ["b","c"], ["b"])`, WantErr: `length of keys and values should be equal`},

		// merge
		"merge":            {Expr: `merge({a="b", c="d"}, {e="f", c="z"})`, Want: cty.ObjectVal(map[string]cty.Value{"a": cty.StringVal("b"), "c": cty.StringVal("z"), "e": cty.StringVal("f")})},
		"merge types":      {Expr: `merge({a="b"}, {a=[1,2], c="z"}, {d=3})`, Want: cty.ObjectVal(map[string]cty.Value{"a": cty.TupleVal([]cty.Value{cty.NumberIntVal(1), cty.NumberIntVal(2)}), "c": cty.StringVal("z"), "d": cty.NumberIntVal(3)})},
		"merge null":       {Expr: `merge(null, {a=1})`, Want: cty.ObjectVal(map[string]cty.Value{"a": cty.NumberIntVal(1)})},
		"merge nothing":    {Expr: `merge()`, Want: cty.EmptyObjectVal},
		"merge maps":       {Expr: `merge(tomap({a="x"}), tomap({b="y"}))`, Want: cty.MapVal(map[string]cty.Value{"a": cty.StringVal("x"), "b": cty.StringVal("y")})},
		"merge not a map":  {Expr: `merge({a=1}, ["x"])`, WantErr: `arguments must be maps or objects, got "tuple"`},
		"one empty":        {Expr: `one([])`, Want: cty.NullVal(cty.DynamicPseudoType)},
		"one single":       {Expr: `one(["x"])`, Want: cty.StringVal("x")},
		"one list":         {Expr: `one(tolist(["a"]))`, Want: cty.StringVal("a")},
		"one empty set":    {Expr: `one(toset([]))`, Want: cty.NullVal(cty.DynamicPseudoType)},
		"one empty list":   {Expr: `one(tolist([]))`, Want: cty.NullVal(cty.DynamicPseudoType)},
		"one string set":   {Expr: `one(toset(["a"]))`, Want: cty.StringVal("a")},
		"one too many":     {Expr: `one(["x","y"])`, WantErr: `must be a list, set, or tuple value with either zero or one elements`},
		"one list too big": {Expr: `one(tolist(["x","y"]))`, WantErr: `must be a list, set, or tuple value with either zero or one elements`},
		"one object":       {Expr: `one({a=1})`, WantErr: `must be a list, set, or tuple value with either zero or one elements`},
		"one null":         {Expr: `one(null)`, WantErr: `argument must not be null`},

		// transpose
		"transpose": {Expr: `transpose({"a" = ["1", "2"], "b" = ["2", "3"]})`, Want: cty.MapVal(map[string]cty.Value{
			"1": strList("a"),
			"2": strList("a", "b"),
			"3": strList("b"),
		})},
		"transpose empty":     {Expr: `transpose({})`, Want: cty.MapValEmpty(cty.List(cty.String))},
		"transpose converts":  {Expr: `transpose({a=[1]})`, Want: cty.MapVal(map[string]cty.Value{"1": strList("a")})},
		"transpose null list": {Expr: `transpose({a=["x"], b=null})`, WantErr: `input must not contain null list`},
	})
}
