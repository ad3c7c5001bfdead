package protocol

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"sort"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// schemaValidator is a deliberately small JSON Schema (2020-12) validator
// that knows exactly the keywords outcome.schema.json uses. Any other
// keyword is an error, so the schema cannot grow a constraint this test
// silently ignores.
type schemaValidator struct {
	root map[string]any
}

// schemaKeywords are the keywords the validator implements; annotation
// keywords are accepted and ignored.
var (
	schemaKeywords = map[string]bool{
		"type": true, "enum": true, "required": true, "properties": true, "additionalProperties": true,
		"items": true, "$ref": true, "oneOf": true, "minimum": true,
	}
	schemaAnnotations = map[string]bool{
		"$schema": true, "$id": true, "title": true, "description": true, "$defs": true,
	}
)

func newSchemaValidator(schema []byte) (*schemaValidator, error) {
	v, err := pyjson.Decode(schema)
	if err != nil {
		return nil, err
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("schema is not an object")
	}
	sv := &schemaValidator{root: root}
	if err := sv.checkSchema(root, "#"); err != nil {
		return nil, err
	}
	return sv, nil
}

// checkSchema walks the schema and refuses keywords the validator does not
// implement, and keyword values of a shape it does not understand.
func (sv *schemaValidator) checkSchema(s map[string]any, at string) error {
	for k, v := range s {
		switch {
		case schemaKeywords[k]:
		case schemaAnnotations[k]:
			if k == "$defs" {
				defs, ok := v.(map[string]any)
				if !ok {
					return fmt.Errorf("%s/$defs is not an object", at)
				}
				for name, d := range defs {
					ds, ok := d.(map[string]any)
					if !ok {
						return fmt.Errorf("%s/$defs/%s is not a schema", at, name)
					}
					if err := sv.checkSchema(ds, at+"/$defs/"+name); err != nil {
						return err
					}
				}
			}
			continue
		default:
			return fmt.Errorf("%s: unsupported keyword %q", at, k)
		}
		switch k {
		case "additionalProperties":
			if v != false {
				return fmt.Errorf("%s: only additionalProperties:false is supported", at)
			}
		case "properties":
			props, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("%s/properties is not an object", at)
			}
			for name, p := range props {
				ps, ok := p.(map[string]any)
				if !ok {
					return fmt.Errorf("%s/properties/%s is not a schema", at, name)
				}
				if err := sv.checkSchema(ps, at+"/properties/"+name); err != nil {
					return err
				}
			}
		case "items":
			is, ok := v.(map[string]any)
			if !ok {
				return fmt.Errorf("%s/items is not a schema", at)
			}
			if err := sv.checkSchema(is, at+"/items"); err != nil {
				return err
			}
		case "oneOf":
			list, ok := v.([]any)
			if !ok || len(list) == 0 {
				return fmt.Errorf("%s/oneOf is not a non-empty array", at)
			}
			for i, sub := range list {
				ss, ok := sub.(map[string]any)
				if !ok {
					return fmt.Errorf("%s/oneOf/%d is not a schema", at, i)
				}
				if err := sv.checkSchema(ss, fmt.Sprintf("%s/oneOf/%d", at, i)); err != nil {
					return err
				}
			}
		case "$ref":
			ref, _ := v.(string)
			if _, err := sv.resolve(ref); err != nil {
				return fmt.Errorf("%s: %v", at, err)
			}
		case "type":
			switch tv := v.(type) {
			case string:
			case []any:
				for _, x := range tv {
					if _, ok := x.(string); !ok {
						return fmt.Errorf("%s/type has a non-string member", at)
					}
				}
			default:
				return fmt.Errorf("%s/type is neither a string nor an array", at)
			}
		case "enum", "required":
			if _, ok := v.([]any); !ok {
				return fmt.Errorf("%s/%s is not an array", at, k)
			}
		case "minimum":
			if _, ok := v.(json.Number); !ok {
				return fmt.Errorf("%s/minimum is not a number", at)
			}
		}
	}
	return nil
}

func (sv *schemaValidator) resolve(ref string) (map[string]any, error) {
	name, ok := strings.CutPrefix(ref, "#/$defs/")
	if !ok || strings.Contains(name, "/") {
		return nil, fmt.Errorf("unsupported $ref %q", ref)
	}
	defs, _ := sv.root["$defs"].(map[string]any)
	s, ok := defs[name].(map[string]any)
	if !ok {
		return nil, fmt.Errorf("dangling $ref %q", ref)
	}
	return s, nil
}

// validateJSON decodes data (numbers kept exact) and validates it; it
// returns every violation found, each prefixed by its JSON pointer.
func (sv *schemaValidator) validateJSON(data []byte) []string {
	doc, err := pyjson.Decode(data)
	if err != nil {
		return []string{"not JSON: " + err.Error()}
	}
	var errs []string
	sv.validate(sv.root, doc, "", &errs)
	return errs
}

func (sv *schemaValidator) validate(s map[string]any, x any, at string, errs *[]string) {
	fail := func(format string, args ...any) {
		where := at
		if where == "" {
			where = "/"
		}
		*errs = append(*errs, where+": "+fmt.Sprintf(format, args...))
	}
	if ref, ok := s["$ref"].(string); ok {
		target, err := sv.resolve(ref)
		if err != nil {
			fail("%v", err)
			return
		}
		sv.validate(target, x, at, errs)
	}
	if t, ok := s["type"]; ok {
		var types []string
		switch tv := t.(type) {
		case string:
			types = []string{tv}
		case []any:
			for _, e := range tv {
				types = append(types, e.(string))
			}
		}
		matched := false
		for _, ty := range types {
			if hasType(x, ty) {
				matched = true
				break
			}
		}
		if !matched {
			fail("type %s, want %s", jsonTypeName(x), strings.Join(types, " or "))
			return
		}
	}
	if e, ok := s["enum"].([]any); ok {
		found := false
		for _, v := range e {
			if reflect.DeepEqual(v, x) {
				found = true
				break
			}
		}
		if !found {
			fail("%v is not one of %v", x, e)
		}
	}
	if m, ok := s["minimum"].(json.Number); ok {
		if n, isNum := x.(json.Number); isNum {
			if numCmp(n, m) < 0 {
				fail("%s is below the minimum %s", n, m)
			}
		}
	}
	if obj, ok := x.(map[string]any); ok {
		if req, ok := s["required"].([]any); ok {
			for _, r := range req {
				if _, present := obj[r.(string)]; !present {
					fail("missing required property %q", r)
				}
			}
		}
		props, _ := s["properties"].(map[string]any)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k].(map[string]any); ok {
				sv.validate(ps, obj[k], at+"/"+k, errs)
			} else if s["additionalProperties"] == false {
				fail("additional property %q not allowed", k)
			}
		}
	}
	if arr, ok := x.([]any); ok {
		if is, ok := s["items"].(map[string]any); ok {
			for i, e := range arr {
				sv.validate(is, e, fmt.Sprintf("%s/%d", at, i), errs)
			}
		}
	}
	if one, ok := s["oneOf"].([]any); ok {
		n := 0
		for _, alt := range one {
			var altErrs []string
			sv.validate(alt.(map[string]any), x, at, &altErrs)
			if len(altErrs) == 0 {
				n++
			}
		}
		if n != 1 {
			fail("matches %d of the oneOf alternatives, want exactly 1", n)
		}
	}
}

func hasType(x any, ty string) bool {
	switch ty {
	case "null":
		return x == nil
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "string":
		_, ok := x.(string)
		return ok
	case "object":
		_, ok := x.(map[string]any)
		return ok
	case "array":
		_, ok := x.([]any)
		return ok
	case "number":
		_, ok := x.(json.Number)
		return ok
	case "integer":
		n, ok := x.(json.Number)
		if !ok {
			return false
		}
		r, ok := new(big.Rat).SetString(string(n))
		return ok && r.IsInt()
	}
	panic("unknown JSON Schema type " + ty)
}

func jsonTypeName(x any) string {
	switch x.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case json.Number:
		return "number"
	}
	return fmt.Sprintf("%T", x)
}

func numCmp(a, b json.Number) int {
	ra, ok1 := new(big.Rat).SetString(string(a))
	rb, ok2 := new(big.Rat).SetString(string(b))
	if !ok1 || !ok2 {
		panic("bad number " + string(a) + " / " + string(b))
	}
	return ra.Cmp(rb)
}
