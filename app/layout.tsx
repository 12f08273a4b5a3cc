import type { Metadata } from 'next';
import { UI_LANGUAGE } from '@/lib/editor/display-title';
import './globals.css';

export const metadata: Metadata = {
  title: { default: 'Toolflow', template: '%s · Toolflow' },
  description:
    'Describe a task; a language model proposes tool calls; review the graph; export correct node JSON.',
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang={UI_LANGUAGE}>
      <body>{children}</body>
    </html>
  );
}
