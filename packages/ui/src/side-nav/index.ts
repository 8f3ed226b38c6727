export { SideNav, navItemRecipe } from './side-nav';
export type { SideNavProps, NavItem, NavGroup, NavLinkProps, RenderNavLink } from './side-nav';
