import {
  Activity,
  BellRing,
  Brain,
  Bus,
  Camera,
  Car,
  ChartLine,
  CircleCheck,
  Clock,
  Coffee,
  Cpu,
  Eye,
  FileCheck,
  HeartPulse,
  Lock,
  MapPin,
  Plug,
  ShieldCheck,
  Smartphone,
  Truck,
  Users,
  Wallet,
  type LucideIcon,
} from 'lucide-react'

import type { IconName } from '@/sanity/lib/icon-names'

const ICONS: Record<IconName, LucideIcon> = {
  smartphone: Smartphone,
  brain: Brain,
  'shield-check': ShieldCheck,
  eye: Eye,
  activity: Activity,
  'bell-ring': BellRing,
  'circle-check': CircleCheck,
  camera: Camera,
  cpu: Cpu,
  plug: Plug,
  lock: Lock,
  chart: ChartLine,
  'heart-pulse': HeartPulse,
  wallet: Wallet,
  clock: Clock,
  'file-check': FileCheck,
  truck: Truck,
  bus: Bus,
  car: Car,
  users: Users,
  'map-pin': MapPin,
  coffee: Coffee,
}

/** A CMS-chosen icon; unknown or missing names fall back to a neutral shield. */
export function Icon({ name, className }: { name?: string | null; className?: string }) {
  const Component = (name && ICONS[name as IconName]) || ShieldCheck
  return <Component aria-hidden="true" className={className} />
}
