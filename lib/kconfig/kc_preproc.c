/*
 * kc_preproc.c - the Kconfig preprocessor: variables (=, :=, +=),
 * user-defined functions with $(1)..$(n), the built-in functions
 * (shell, info, warning-if, error-if, filename, lineno) and environment
 * variables, with the kernel's expansion rules (preprocess.c).
 */
#include "kc_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define FUNCTION_MAX_ARGS 16

static char *expand_string_with_args(kc_tree *t, const char *in, int argc,
				     char *argv[]);

const char *pp_getenv(kc_tree *t, const char *name)
{
	size_t n = strlen(name);
	for (size_t i = 0; i < t->nenv; i++)
		if (!strncmp(t->env[i], name, n) && t->env[i][n] == '=')
			return t->env[i] + n + 1;
	return NULL;
}

void pp_setenv(kc_tree *t, const char *name, const char *value)
{
	size_t n = strlen(name);
	char *entry = kf_arena_printf(t->arena, "%s=%s", name, value);
	for (size_t i = 0; i < t->nenv; i++)
		if (!strncmp(t->env[i], name, n) && t->env[i][n] == '=') {
			t->env[i] = entry;
			return;
		}
	KF_GROW(t->env, t->nenv + 2, t->aenv);
	t->env[t->nenv++] = entry;
	t->env[t->nenv] = NULL;
}

static char *env_expand(kc_tree *t, const char *name)
{
	if (!*name)
		return NULL;
	for (kc_env *e = t->envs; e; e = e->next)
		if (!strcmp(name, e->name))
			return kf_xstrdup(e->value);
	const char *value = pp_getenv(t, name);
	if (!value)
		return NULL;
	kc_env *e = kf_arena_alloc(t->arena, sizeof(*e));
	e->name = kf_arena_strdup(t->arena, name);
	e->value = kf_arena_strdup(t->arena, value);
	e->next = t->envs;
	t->envs = e;
	return kf_xstrdup(value);
}

static char *do_error_if(kc_tree *t, int argc, char *argv[])
{
	if (t->spec && strstr(argv[0], KC_SPEC_MARK)) {
		/* a speculative pass stops where the real one does */
		char *known = kc_spec_resolve(t, argv[0]);
		if (!known || !strcmp(known, "y"))
			kc_pp_error(t, "%s", argv[1]);
		free(known);
		return kf_xstrdup("");
	}
	if (!strcmp(argv[0], "y"))
		kc_pp_error(t, "%s", argv[1]);
	return kf_xstrdup("");
}

static char *do_filename(kc_tree *t, int argc, char *argv[])
{
	return kf_xstrdup(kc_cur_file(t));
}

static char *do_info(kc_tree *t, int argc, char *argv[])
{
	kf_strbuf_addf(&t->out, "%s\n", argv[0]);
	return kf_xstrdup("");
}

static char *do_lineno(kc_tree *t, int argc, char *argv[])
{
	return kf_xasprintf("%d", kc_lex_lineno(t));
}

static char *do_shell(kc_tree *t, int argc, char *argv[])
{
	return kc_shell_run(t, argv[0]);
}

static char *do_warning_if(kc_tree *t, int argc, char *argv[])
{
	if (!strcmp(argv[0], "y")) {
		kf_strbuf sb = KF_STRBUF_INIT;
		kf_strbuf_addf(&sb, "%s:%d: %s", kc_cur_file(t), kc_lex_lineno(t),
			       argv[1]);
		kf_diag_raw(t->diags, KF_WARNING, "%s", kf_strbuf_str(&sb));
		kf_strbuf_release(&sb);
	}
	return kf_xstrdup("");
}

static const struct function {
	const char *name;      /* function name */
	int min_args;          /* fewest arguments */
	int max_args;          /* most arguments */
	char *(*func)(kc_tree *t, int argc, char *argv[]); /* implementation */
} function_table[] = {
	{"error-if", 2, 2, do_error_if}, {"filename", 0, 0, do_filename},
	{"info", 1, 1, do_info},	 {"lineno", 0, 0, do_lineno},
	{"shell", 1, 1, do_shell},	 {"warning-if", 2, 2, do_warning_if},
};

static char *function_expand(kc_tree *t, const char *name, int argc,
			     char *argv[])
{
	for (size_t i = 0; i < sizeof(function_table) / sizeof(function_table[0]);
	     i++) {
		const struct function *f = &function_table[i];
		if (strcmp(f->name, name))
			continue;
		if (argc < f->min_args) {
			kc_pp_error(t, "too few function arguments passed to '%s'",
				    name);
			return kf_xstrdup("");
		}
		if (argc > f->max_args) {
			kc_pp_error(t, "too many function arguments passed to '%s'",
				    name);
			return kf_xstrdup("");
		}
		return f->func(t, argc, argv);
	}
	return NULL;
}

static kc_var *variable_lookup(kc_tree *t, const char *name)
{
	for (kc_var *v = t->vars; v; v = v->next)
		if (!strcmp(name, v->name))
			return v;
	return NULL;
}

static char *variable_expand(kc_tree *t, const char *name, int argc,
			     char *argv[])
{
	kc_var *v = variable_lookup(t, name);
	char *res;
	if (!v)
		return NULL;
	if (argc == 0 && v->exp_count) {
		kc_pp_error(t, "Recursive variable '%s' references itself (eventually)",
			    name);
		return kf_xstrdup("");
	}
	if (v->exp_count > 1000) {
		kc_pp_error(t, "Too deep recursive expansion");
		return kf_xstrdup("");
	}
	v->exp_count++;
	if (v->flavor == VAR_RECURSIVE)
		res = expand_string_with_args(t, v->value, argc, argv);
	else
		res = kf_xstrdup(v->value);
	v->exp_count--;
	return res;
}

void pp_variable_add(kc_tree *t, const char *name, const char *value,
		     enum kc_var_flavor flavor)
{
	kc_var *v = variable_lookup(t, name);
	bool append = false;
	char *new_value;

	if (v) {
		if (flavor == VAR_APPEND) {
			flavor = v->flavor;
			append = true;
		}
	} else {
		if (flavor == VAR_APPEND)
			flavor = VAR_RECURSIVE;
		v = kf_arena_alloc(t->arena, sizeof(*v));
		v->name = kf_arena_strdup(t->arena, name);
		v->value = ""; /* what "X := $(X)" sees of itself */
		kc_var **pp = &t->vars;
		while (*pp)
			pp = &(*pp)->next;
		*pp = v;
	}
	v->flavor = flavor;
	if (flavor == VAR_SIMPLE)
		new_value = pp_expand_string(t, value);
	else
		new_value = kf_xstrdup(value);
	if (append)
		v->value = kf_arena_printf(t->arena, "%s %s", v->value, new_value);
	else
		v->value = kf_arena_strdup(t->arena, new_value);
	free(new_value);
}

static char *eval_clause(kc_tree *t, const char *str, size_t len, int argc,
			 char *argv[])
{
	char *tmp, *name, *res, *endptr, *prev, *p;
	int new_argc = 0;
	char *new_argv[FUNCTION_MAX_ARGS];
	int nest = 0;
	unsigned long n;

	tmp = kf_xstrndup(str, len);
	n = strtoul(tmp, &endptr, 10);
	if (!*endptr && n > 0 && n <= (unsigned long)argc) {
		res = kf_xstrdup(argv[n - 1]);
		free(tmp);
		return res;
	}
	prev = p = tmp;
	while (*p) {
		if (nest == 0 && *p == ',') {
			*p = 0;
			if (new_argc >= FUNCTION_MAX_ARGS) {
				kc_pp_error(t, "too many function arguments");
				free(tmp);
				return kf_xstrdup("");
			}
			new_argv[new_argc++] = prev;
			prev = p + 1;
		} else if (*p == '(') {
			nest++;
		} else if (*p == ')') {
			nest--;
		}
		p++;
	}
	if (new_argc >= FUNCTION_MAX_ARGS) {
		kc_pp_error(t, "too many function arguments");
		free(tmp);
		return kf_xstrdup("");
	}
	new_argv[new_argc++] = prev;

	name = expand_string_with_args(t, new_argv[0], argc, argv);
	new_argc--;
	for (int i = 0; i < new_argc; i++)
		new_argv[i] = expand_string_with_args(t, new_argv[i + 1], argc, argv);

	res = NULL;
	/* a speculative pass: a name made from a result not known yet */
	if (t->spec && strstr(name, KC_SPEC_MARK)) {
		char *known = kc_spec_resolve(t, name);
		if (!known)
			kc_pp_error(t, "not known");
		free(name);
		name = known ? known : kf_xstrdup("");
	}
	if (!kc_pp_failed(t))
		res = variable_expand(t, name, new_argc, new_argv);
	if (!res && !kc_pp_failed(t))
		res = function_expand(t, name, new_argc, new_argv);
	if (!res && new_argc == 0 && !kc_pp_failed(t))
		res = env_expand(t, name);
	if (!res)
		res = kf_xstrdup("");
	for (int i = 0; i < new_argc; i++)
		free(new_argv[i]);
	free(name);
	free(tmp);
	return res;
}

static char *expand_dollar_with_args(kc_tree *t, const char **str, int argc,
				     char *argv[])
{
	const char *p = *str;
	const char *q;
	int nest = 0;

	if (*p != '(') {
		*str = p;
		return kf_xstrdup("$");
	}
	p++;
	q = p;
	while (*q) {
		if (*q == '(') {
			nest++;
		} else if (*q == ')') {
			if (nest-- == 0)
				break;
		}
		q++;
	}
	if (!*q) {
		kc_pp_error(t, "unterminated reference to '%s': missing ')'", p);
		*str = q;
		return kf_xstrdup("");
	}
	*str = q + 1;
	return eval_clause(t, p, (size_t)(q - p), argc, argv);
}

char *pp_expand_dollar(kc_tree *t, const char **str)
{
	return expand_dollar_with_args(t, str, 0, NULL);
}

static char *expand_until(kc_tree *t, const char **str, bool (*is_end)(char c),
			  int argc, char *argv[])
{
	const char *in, *p;
	kf_strbuf out = KF_STRBUF_INIT;

	kf_strbuf_addstr(&out, "");
	p = in = *str;
	for (;;) {
		if (*p == '$') {
			kf_strbuf_add(&out, in, (size_t)(p - in));
			p++;
			char *expansion = expand_dollar_with_args(t, &p, argc, argv);
			kf_strbuf_addstr(&out, expansion);
			free(expansion);
			in = p;
			if (kc_pp_failed(t))
				break;
			continue;
		}
		if (is_end(*p))
			break;
		p++;
	}
	kf_strbuf_add(&out, in, (size_t)(p - in));
	*str = p;
	return kf_strbuf_detach(&out);
}

static bool is_end_of_str(char c)
{
	return !c;
}

static bool is_end_of_token(char c)
{
	return !(isalnum((unsigned char)c) || c == '_' || c == '-');
}

static char *expand_string_with_args(kc_tree *t, const char *in, int argc,
				     char *argv[])
{
	return expand_until(t, &in, is_end_of_str, argc, argv);
}

char *pp_expand_string(kc_tree *t, const char *in)
{
	return expand_string_with_args(t, in, 0, NULL);
}

char *pp_expand_one_token(kc_tree *t, const char **str)
{
	return expand_until(t, str, is_end_of_token, 0, NULL);
}
