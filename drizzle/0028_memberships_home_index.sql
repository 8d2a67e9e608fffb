-- A home's memberships, found by index: whether an earlier membership of the customer or of the
-- home took the 60-day guarantee away (ADR 059) was read by scanning every membership (ADR 109).
CREATE INDEX "memberships_home_idx" ON "memberships" USING btree ("home_id","created_at");
