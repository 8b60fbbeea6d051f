# schema-check.jq - check a JSON document against a JSON Schema, in jq.
#
#   jq -n -r --slurpfile schema S.schema.json --slurpfile doc DOC.json \
#      -f tests/schema-check.jq
#
# prints one line per violation ("$.path: what is wrong"), nothing when the
# document is valid.  The subset of draft 2020-12 that docs/schema/ uses:
# type (a name or a list; "integer" is a number without a fraction), enum,
# const, pattern, minimum, properties, required, additionalProperties
# (false or a schema), items (one schema), minItems, $ref to "#/$defs/NAME",
# and $schema, $id, title, description, $defs, which only document.
# An unknown keyword is itself reported, so a schema cannot silently use
# more than this checks.

def known: ["$schema", "$id", "$defs", "$ref", "title", "description",
	"type", "enum", "const", "pattern", "minimum", "properties", "required",
	"additionalProperties", "items", "minItems"];

def jtype: if type == "number" and . == floor then "integer" else type end;

def type_ok($t):
	jtype as $a
	| [($t | if type == "array" then .[] else . end)]
	| any(. == $a or (. == "number" and $a == "integer"));

def check($root; $s; $path):
	. as $v
	| if ($s | type) != "object" then "\($path): the schema is not an object"
	elif $s | has("$ref") then
		($s["$ref"] | ltrimstr("#/$defs/")) as $n
		| if ($root["$defs"] // {}) | has($n) then check($root; $root["$defs"][$n]; $path)
		  else "\($path): no $defs entry for \($s["$ref"])" end
	else
		( $s | keys[] | select(. as $k | known | index($k) | not)
		  | "\($path): the checker does not know the keyword \(.)" ),
		( if ($s | has("type")) and (type_ok($s.type) | not) then
			"\($path): \($v | jtype) where \($s.type | if type == "array" then join(" or ") else . end) is wanted"
		  else empty end ),
		( if ($s | has("enum")) and ($s.enum | index([$v]) | not) then
			"\($path): \($v | tojson) is not one of \($s.enum | map(tojson) | join(", "))"
		  else empty end ),
		( if ($s | has("const")) and $v != $s.const then
			"\($path): \($v | tojson) is not \($s.const | tojson)"
		  else empty end ),
		( if ($s | has("pattern")) and ($v | type) == "string" and ($v | test($s.pattern) | not) then
			"\($path): \($v | tojson) does not match \($s.pattern)"
		  else empty end ),
		( if ($s | has("minimum")) and ($v | type) == "number" and $v < $s.minimum then
			"\($path): \($v) is below \($s.minimum)"
		  else empty end ),
		( if ($v | type) == "object" then
			( ($s.required // [])[] | select(. as $k | $v | has($k) | not)
			  | "\($path): the property \(.) is missing" ),
			( $v | keys_unsorted[] as $k
			  | if ($s.properties // {}) | has($k) then
				$v[$k] | check($root; $s.properties[$k]; "\($path).\($k)")
			    elif $s.additionalProperties == false then
				"\($path): unexpected property \($k)"
			    elif ($s.additionalProperties | type) == "object" then
				$v[$k] | check($root; $s.additionalProperties; "\($path).\($k)")
			    else empty end )
		  else empty end ),
		( if ($v | type) == "array" then
			( if ($s | has("minItems")) and ($v | length) < $s.minItems then
				"\($path): \($v | length) items, at least \($s.minItems) wanted"
			  else empty end ),
			( if $s | has("items") then
				range(0; $v | length) as $i | $v[$i] | check($root; $s.items; "\($path)[\($i)]")
			  else empty end )
		  else empty end )
	end;

$schema[0] as $s | $doc[0] | check($s; $s; "$")
