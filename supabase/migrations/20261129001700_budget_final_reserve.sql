-- THE BUILDS KEPT FOR A CYCLE'S LAST HOURS STAY KEPT.
--
-- private.site_budget keeps one build per site for the last six hours of the cycle, when everything still
-- waiting goes out; but the burst allowance could spend them earlier (the pace allowed up to the whole budget),
-- leaving some sites without a last build (found by npm run bench:budget: a 30-site team). Before the final hours
-- the pace now allows at most the budget less what is kept.

/** A site's build budget now (see 20261129001100_hosting_teams.sql); the kept builds are kept until the final hours. */
create or replace function private.site_budget(p_organization_id uuid) returns jsonb
language plpgsql stable set search_path = ''
as $$
declare
  v_team public.hosting_teams;
  v_start timestamptz;
  v_end timestamptz;
  v_budget integer;
  v_sites integer;
  v_team_used integer;
  v_site_used integer;
  v_reserve integer;
  v_burst integer;
  v_paced integer;
  v_final boolean;
  v_allowance integer;
  v_site_cap integer;
  v_may boolean;
  v_next timestamptz;
  v_needed integer;
begin
  select t.* into v_team from public.hosting_teams t join public.hosting_team_sites s on s.team_id = t.id where s.organization_id = p_organization_id;
  if v_team.id is null then
    return null;
  end if;
  v_start := private.cycle_start(v_team.cycle_start_day, now());
  v_end := private.cycle_end(v_team.cycle_start_day, v_start);
  v_budget := floor(v_team.monthly_credits * v_team.build_share_percent / 100.0 / v_team.credits_per_deploy);
  select count(*), coalesce(sum(private.site_builds_since(s.organization_id, v_start)), 0) into v_sites, v_team_used
  from public.hosting_team_sites s where s.team_id = v_team.id;
  v_site_used := private.site_builds_since(p_organization_id, v_start);
  v_reserve := least(v_sites, v_budget / 4);
  v_burst := greatest(1, v_budget / 20);
  v_paced := v_budget - v_reserve;
  v_final := now() >= v_end - private.final_flush();
  v_allowance := case
    when v_final then v_budget
    -- The builds kept back for the final hours are never spent before them, burst or not.
    else least(v_paced, floor(v_paced * extract(epoch from now() - v_start) / extract(epoch from v_end - v_start))::integer + v_burst)
  end;
  -- At most twice its even share of what has accrued; in the final hours every site may have its last build.
  v_site_cap := case when v_sites <= 1 or v_final then v_budget else greatest(1, ceil(2.0 * v_allowance / v_sites)::integer) end;
  v_may := v_team_used < v_allowance and v_site_used < v_site_cap;
  if v_may then
    v_next := now();
  elsif v_team_used >= v_budget then
    v_next := v_end;
  else
    -- The allowance that lets this site build: one more than the team used, and enough for the site's cap.
    v_needed := greatest(v_team_used + 1, case when v_sites <= 1 then 0 else floor(v_site_used * v_sites / 2.0)::integer + 1 end);
    v_next := case
      when v_paced <= 0 then v_end - private.final_flush()
      else least(v_end - private.final_flush(),
                 v_start + (v_end - v_start) * (greatest(0, v_needed - v_burst)::double precision / v_paced))
    end;
  end if;
  return jsonb_build_object(
    'team_id', v_team.id,
    'team_name', v_team.name,
    'monthly_credits', v_team.monthly_credits,
    'credits_per_deploy', v_team.credits_per_deploy,
    'build_share_percent', v_team.build_share_percent,
    'auto_recharge', v_team.auto_recharge,
    'cycle_start', v_start,
    'cycle_end', v_end,
    'sites', v_sites,
    'builds_in_cycle', v_budget,
    'team_builds_used', v_team_used,
    'site_builds_used', v_site_used,
    'builds_left', greatest(0, v_budget - v_team_used),
    'credits_used', v_team_used * v_team.credits_per_deploy,
    'allowed_now', v_allowance,
    'may_build', v_may,
    'share_spent', v_team_used >= v_budget,
    'next_build_at', v_next
  );
end;
$$;

