// Package render formats plan changes and state values for humans, the way
// Terraform's CLI prints them.
//
// ResourceChange renders one resource instance change block as printed under
// "Terraform will perform the following actions:", OutputChange and
// OutputChanges render lines of the "Changes to Outputs:" section, Value
// renders a value the way the "Outputs:" section after apply does, and
// StateResource and StateOutput render state the way `show` does.
//
// Rendering happens in two steps. First a diff tree is computed from the
// before and after values: typed values follow the schema (attributes,
// nested attribute types, nested blocks), while values of dynamic type, and
// strings holding JSON, are compared with JSON semantics, as Terraform does.
// Then the tree is printed. The text returned carries colorstring markup
// ([green], [red], [bold], ...); pass it through Colorize, which also
// protects markup-like text found inside user values.
package render
