/*
 * budget.c — the search's spend limits (--budget calls:N,usd:X,time:T) as
 * the client enforces them: a call is claimed before it is sent, and an
 * attempt's time limit is cut to what is left of a time budget. Shared by
 * the HTTP transfers (transfer.c) and the cmd: workers (client.c).
 */
#include "internal.h"

static LlmBudgetState budget_state_locked(LlmClient *c)
{
	const LlmBudget *b = &c->cfg.budget;
	if (b->calls > 0 && c->tot.calls >= b->calls)
		return LLM_BUDGET_CALLS;
	if (b->usd > 0 && c->tot.usd >= b->usd)
		return LLM_BUDGET_USD;
	if (b->time_s > 0 && clock_now() - c->t0 >= b->time_s)
		return LLM_BUDGET_TIME;
	return LLM_BUDGET_LEFT;
}

double llm_attempt_timeout(LlmClient *c)
{
	double t = c->cfg.timeout_s;
	if (c->cfg.budget.time_s > 0) {
		double left = c->cfg.budget.time_s - (clock_now() - c->t0);
		if (left < t)
			t = left > 0.1 ? left : 0.1;
	}
	return t;
}

LlmBudgetState llm_budget_state(LlmClient *c)
{
	pthread_mutex_lock(&c->mu);
	LlmBudgetState s = budget_state_locked(c);
	pthread_mutex_unlock(&c->mu);
	return s;
}

int llm_claim_call(LlmClient *c, Job *j)
{
	pthread_mutex_lock(&c->mu);
	LlmBudgetState s = budget_state_locked(c);
	if (s == LLM_BUDGET_LEFT)
		c->tot.calls++;
	pthread_mutex_unlock(&c->mu);
	if (s == LLM_BUDGET_LEFT)
		return LLM_OK;
	j->state = JOB_DONE;
	j->resp->status = LLM_EBUDGET;
	/* Static text: this may run on a cmd: worker, away from the arena. */
	j->resp->error = s == LLM_BUDGET_CALLS ? "not sent: the calls budget is used up"
	                 : s == LLM_BUDGET_USD ? "not sent: the usd budget is used up"
	                                       : "not sent: the time budget is used up";
	return LLM_EBUDGET;
}
