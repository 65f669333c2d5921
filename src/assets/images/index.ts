/**
 * The site's own pictures: illustrations drawn as SVG (`source/`) and rasterized to 2400 px JPEGs with sharp,
 * which `astro:assets` turns into AVIF and WebP variants at build (see docs/features.md, "Pictures, all self-hosted").
 */
import heroDashboard from './hero-dashboard.jpg';
import teamPlanning from './team-planning.jpg';

/** The home hero: the page's largest paint, so it is preloaded (HeroPreload.astro) and loaded eagerly. */
export const heroPicture = { src: heroDashboard, alt: 'Marketing dashboard with growth charts on a laptop' };

/** The about preview on the home page. */
export const teamPicture = { src: teamPlanning, alt: 'Our team planning a campaign around a table' };
