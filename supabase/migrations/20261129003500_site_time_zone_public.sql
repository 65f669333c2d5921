-- THE SITE'S TIME ZONE IS PUBLIC. A post scheduled for 11:12 PM in New York was dated the next day on its page, its
-- card and in search (the site formatted dates in UTC). Dates are now shown in the organization's time zone (its
-- publishing queue's, America/New_York unless an admin chose another), and the build reads that zone with the anon
-- key, as it reads the posts: anon may read a queue's time zone, and nothing else of it (not its pace or hours).
grant select (organization_id, time_zone) on table public.publishing_queues to anon;
create policy "Anyone reads an organization's time zone" on public.publishing_queues
  for select to anon using (true);
