import * as React from "react";
import { useLocation } from "react-router";
import { Toaster as Sonner, type ToasterProps } from "sonner";

/*
 * Sonner's built-in rich colours fall just short of WCAG AA (≈4.3:1, warning ≈3:1),
 * so they are overridden here with AA-compliant pairs (all ≥ 6:1).
 */
const toasterStyle = {
  "--normal-bg": "var(--popover)",
  "--normal-text": "var(--popover-foreground)",
  "--normal-border": "var(--border)",
  "--success-bg": "oklch(0.97 0.03 150)",
  "--success-border": "oklch(0.88 0.07 150)",
  "--success-text": "oklch(0.42 0.11 150)",
  "--info-bg": "oklch(0.97 0.015 250)",
  "--info-border": "oklch(0.88 0.05 250)",
  "--info-text": "oklch(0.47 0.13 250)",
  "--warning-bg": "oklch(0.98 0.03 85)",
  "--warning-border": "oklch(0.88 0.09 85)",
  "--warning-text": "oklch(0.47 0.1 60)",
  "--error-bg": "oklch(0.97 0.015 20)",
  "--error-border": "oklch(0.88 0.06 20)",
  "--error-text": "oklch(0.5 0.19 27)",
  "--border-radius": "var(--radius)",
} as React.CSSProperties;

/** The gap between the page's header and the toasts. */
const GAP = 8;

/**
 * Keeps `--toast-top` at the bottom edge of the page's header as it is on screen (a fixed header
 * stays, one in the page's flow scrolls away), so the toasts sit just below it and never cover
 * its controls (Book a Call, the phone number, the profile menu).
 */
function useBelowHeader() {
  const { pathname } = useLocation();
  React.useEffect(() => {
    let frame = 0;
    const measure = () => {
      frame = 0;
      // The page's header, and controls a page marks as part of it (the employee dashboard's
      // 'Create Appointment' and 'Sign Out' under its title).
      const tops = [...document.querySelectorAll("header, [data-header-controls]")];
      const bottom = Math.max(0, ...tops.map((element) => element.getBoundingClientRect().bottom));
      document.documentElement.style.setProperty("--toast-top", `${Math.ceil(bottom) + GAP}px`);
    };
    const schedule = () => {
      if (!frame) frame = requestAnimationFrame(measure);
    };
    measure();
    window.addEventListener("scroll", schedule, { passive: true });
    window.addEventListener("resize", schedule);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", schedule);
      window.removeEventListener("resize", schedule);
    };
  }, [pathname]);
}

/**
 * App-wide toast outlet. Render once (in the root layout); call `toast()` from
 * "sonner" anywhere. Toasts show at the top centre, below the page's header, at every width.
 */
function Toaster({ style, ...props }: ToasterProps) {
  useBelowHeader();
  const top = `var(--toast-top, ${GAP}px)`;
  return (
    <Sonner
      theme="light"
      position="top-center"
      offset={{ top }}
      mobileOffset={{ top }}
      richColors
      closeButton
      duration={5000}
      className="toaster group"
      style={{ ...toasterStyle, ...style }}
      {...props}
    />
  );
}

export { Toaster };
