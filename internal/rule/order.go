package rule

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
)

// keys and values are expr's, listing a map in the order of its keys: in
// Go's map order (random on every call) `keys(args)[0] == "command"`
// would decide differently from one firing to the same next one, and a
// rule must decide the same way when replayed (why the clock is left
// out: guard.go).
func keys(params ...any) (any, error) {
	ks, _, err := sortedMap("keys", params[0])
	return ks, err
}

func values(params ...any) (any, error) {
	_, vs, err := sortedMap("values", params[0])
	return vs, err
}

// sortedMap is m's keys in order and its values in their keys' order:
// strings by their bytes; keys of other types (a rule's own map literal
// with number keys) by their printed form.
func sortedMap(what string, m any) (keys, vals []any, err error) {
	v := reflect.ValueOf(m)
	if v.Kind() != reflect.Map {
		return nil, nil, fmt.Errorf("cannot get %s from %s", what, v.Kind())
	}
	ks := v.MapKeys()
	slices.SortFunc(ks, func(a, b reflect.Value) int {
		if a.Kind() == reflect.String && b.Kind() == reflect.String {
			return cmp.Compare(a.String(), b.String())
		}
		return cmp.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
	})
	keys, vals = make([]any, len(ks)), make([]any, len(ks))
	for i, k := range ks {
		keys[i], vals[i] = k.Interface(), v.MapIndex(k).Interface()
	}
	return keys, vals, nil
}
