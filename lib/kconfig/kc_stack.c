/*
 * kc_stack.c - deep recursion without a stack overflow.  The engine follows
 * conf's recursive algorithms call for call (value calculation, the
 * dependency-loop check, menu finalization), so that values and warnings
 * come in conf's order; a chain of 100,000 symbols (select, imply,
 * depends on, range) recurses that deep, more than a thread's stack holds.
 * kc_stack_call() runs a step on the caller's stack while less than a
 * slice of it has been used since the engine was entered, and otherwise
 * on a new thread's stack while the caller waits: the recursion goes on
 * slice after slice, up to KC_STACK_SLICES of them, and past that the
 * step is not run and the caller reports the chain as too deep.
 */
#include "kc_internal.h"

#include <pthread.h>

/* Each new slice's stack: room for a step's own depth past the slice
 * (an expression with thousands of operands) as on a main thread. */
#define KC_STACK_SIZE (8 * 1024 * 1024)

/* A step run on a new slice. */
struct kc_hop {
	kc_tree *t;            /* the tree */
	void (*fn)(void *arg); /* the step */
	void *arg;             /* its argument */
};

static uintptr_t stack_here(void)
{
	return (uintptr_t)__builtin_frame_address(0);
}

static void *hop_run(void *p)
{
	struct kc_hop *h = p;
	h->t->stack_base = stack_here();
	h->fn(h->arg);
	return NULL;
}

bool kc_stack_call(kc_tree *t, void (*fn)(void *arg), void *arg)
{
	uintptr_t here = stack_here(), base = t->stack_base;
	if (!base) { /* the engine's outermost step */
		t->stack_base = here;
		fn(arg);
		t->stack_base = 0;
		return true;
	}
	if ((here > base ? here - base : base - here) < KC_STACK_SLICE) {
		fn(arg);
		return true;
	}
	if (t->stack_slices >= KC_STACK_SLICES)
		return false;
	struct kc_hop h = {t, fn, arg};
	pthread_attr_t attr;
	pthread_t thr;
	if (pthread_attr_init(&attr))
		return false;
	int rc = pthread_attr_setstacksize(&attr, KC_STACK_SIZE);
	t->stack_slices++;
	if (rc == 0)
		rc = pthread_create(&thr, &attr, hop_run, &h);
	pthread_attr_destroy(&attr);
	if (rc == 0)
		pthread_join(thr, NULL);
	t->stack_slices--;
	t->stack_base = base;
	return rc == 0;
}
