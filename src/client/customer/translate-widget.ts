import { pageConfig } from './brand';

declare global {
  interface Window {
    edcardTranslateInit?: () => void;
    google?: {
      translate?: {
        TranslateElement?: new (options: Record<string, unknown>, elementId: string) => unknown;
      };
    };
  }
}

export const TRANSLATE_ELEMENT_ID = 'translate-widget';
let requested = false;

/**
 * Loads the third-party translation widget when the server names one (TRANSLATE_WIDGET_URL). It loads
 * after the page is up and nothing waits for it: without it the page works the same.
 */
export function loadTranslateWidget(): void {
  const url = pageConfig().translateWidgetUrl;
  if (!url || requested) return;
  requested = true;
  window.edcardTranslateInit = () => {
    const Element = window.google?.translate?.TranslateElement;
    if (!Element || !document.getElementById(TRANSLATE_ELEMENT_ID)) return;
    try {
      new Element({ pageLanguage: 'en', autoDisplay: false }, TRANSLATE_ELEMENT_ID);
    } catch (err) {
      console.warn('translation widget failed to start', err);
    }
  };
  const script = document.createElement('script');
  script.src = url;
  script.async = true;
  script.onerror = () => console.warn('translation widget could not be loaded');
  document.head.appendChild(script);
}
